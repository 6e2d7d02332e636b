import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ZErrorBody } from '@/lib/api/schemas'
import { decodePng, imageSize, type Pixels } from '@/test/support/decode-image'
import { signIn, startServer, stopServer, tempDir, type StartedServer } from '@/test/support/start-server'

// Server-side images need the real server: the headless browser loads the page
// app/render/headless and the model from it over HTTP.

// A 20 mm cube with a foot towards +Y: seen from +X the foot is on the right, from -X on the left.
const MODEL = 'color("orange") { cube([20, 20, 20]); translate([0, 20, 0]) cube([20, 10, 5]); }'
const FILES = {
  'configurator/main.scad': MODEL,
  'renderer/pass.vert': 'void main(){gl_Position=projectionMatrix*modelViewMatrix*vec4(position,1.0);}',
  'renderer/red.frag': 'void main(){gl_FragColor=vec4(1.,0.,0.,1.);}',
  'renderer/broken.frag': 'void main(){gl_FragColor=vec4(1.,0.,0.,1.) oops}',
  // Billions of iterations: on SwiftShader this runs for minutes and wedges the browser's GPU process.
  'renderer/runaway.frag':
    '#version 300 es\nprecision highp float; ' +
    'uniform int n; out vec4 c; void main(){ ' +
    'float s=0.; for(int i=0;i<n;i++){ ' +
    's+=sin(float(i)); } c=vec4(fract(s),0.,0.,1.); }',
}
const RED = { materials: { '0': { vertexShader: 'pass.vert', fragmentShader: 'red.frag' } } }

let server: StartedServer
let token: string
let session: {
  id: string
  renderingKey: string
  modelKey: string
  renderSessions: { rendererType: string; sessionId: string }[]
}
let headless: string
let webgl: string

const auth = () => ({ authorization: `Bearer ${token}` })

function imageUrl(query: Record<string, string | number>, renderer = headless): string {
  const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]))
  return `${server.url}/api/configsessions/${session.id}/renderers/${renderer}/image?${search}`
}

async function image(query: Record<string, string | number>): Promise<{ response: Response; bytes: Buffer }> {
  const response = await fetch(imageUrl(query), { headers: auth() })
  const bytes = Buffer.from(await response.arrayBuffer())
  if (response.status !== 200) throw new Error(`image answered ${response.status}: ${bytes.toString()}`)
  return { response, bytes }
}

async function setScene(scene: object): Promise<void> {
  const response = await fetch(`${server.url}/api/configsessions/${session.id}/renderers/${headless}/scene`, {
    method: 'PUT',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify(scene),
  })
  expect(response.status, await response.clone().text()).toBe(200)
}

const isRed = ([r, g, b, a]: number[]) => r! > 240 && g! < 15 && b! < 15 && a! > 240
const isClear = ([, , , a]: number[]) => a === 0
const covered = (pixels: Pixels, x: number, y: number) => pixels.at(x, y)[3] > 128

beforeAll(async () => {
  server = await startServer({
    DATA_DIR: tempDir(),
    SEED_DEMO: 'false',
    RENDER_PAGES: '1',
    RENDER_QUEUE: '2',
    RENDER_TIME_LIMIT_SECONDS: '10',
  })
  token = await signIn(server.url)
  const created = await fetch(`${server.url}/api/configurators`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Foot',
      mainFile: 'main.scad',
      rendererType: 'headless',
      extraSettings: { renderers: ['webgl'] },
    }),
  })
  const { UUID } = (await created.json()) as { UUID: string }
  for (const [path, body] of Object.entries(FILES)) {
    const upload = await fetch(`${server.url}/api/configurators/${UUID}/files/${path}`, {
      method: 'PUT',
      headers: auth(),
      body,
    })
    expect(upload.status).toBe(202)
  }
  const opened = await fetch(`${server.url}/api/configsessions`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify({ configuratorId: UUID }),
  })
  session = (await opened.json()) as typeof session
  headless = session.renderSessions.find((renderer) => renderer.rendererType === 'headless')!.sessionId
  webgl = session.renderSessions.find((renderer) => renderer.rendererType === 'webgl')!.sessionId
  await setScene(RED)
}, 180_000)

afterAll(async () => {
  await stopServer(server)
})

describe('GET .../renderers/{rid}/image', () => {
  it.each([
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['jpg', 'image/jpeg'],
    ['webp', 'image/webp'],
  ])('answers exactly w x h as %s', async (type, contentType) => {
    const { response, bytes } = await image({ w: 321, h: 123, type })
    expect(response.headers.get('content-type')).toBe(contentType)
    expect(imageSize(bytes)).toEqual({ type: contentType.slice(6), width: 321, height: 123 })
  })

  it('answers png by default, also 1 x 1 and 4096 wide', async () => {
    expect(imageSize((await image({ w: 1, h: 1 })).bytes)).toEqual({ type: 'png', width: 1, height: 1 })
    expect(imageSize((await image({ w: 4096, h: 16 })).bytes)).toEqual({ type: 'png', width: 4096, height: 16 })
  })

  it('paints part 0 with the red fragment shader of material "0"; the background stays clear', async () => {
    const pixels = decodePng((await image({ w: 200, h: 150 })).bytes)
    expect(pixels.at(100, 75)).toSatisfy(isRed)
    for (const [x, y] of [
      [0, 0],
      [199, 0],
      [0, 149],
      [199, 149],
    ] as const)
      expect(pixels.at(x, y)).toSatisfy(isClear)
  })

  it('sees mirrored silhouettes from +X and from -X', async () => {
    const camera = { w: 200, h: 200, vy: 0, vz: 0, tx: 0, ty: 0, tz: 1, a: 40 }
    const fromPlusX = decodePng((await image({ ...camera, px: 100, py: 15, pz: 10, vx: -1 })).bytes)
    const fromMinusX = decodePng((await image({ ...camera, px: -80, py: 15, pz: 10, vx: 1 })).bytes)
    // From +X, screen right is +Y: the foot (y 20..30, z 0..5) is bottom right, the cube's top left.
    expect(covered(fromPlusX, 140, 126)).toBe(true)
    expect(covered(fromPlusX, 140, 80)).toBe(false)
    expect(covered(fromPlusX, 60, 80)).toBe(true)
    let different = 0
    let asymmetric = 0
    let foreground = 0
    for (let y = 0; y < 200; y++) {
      for (let x = 0; x < 200; x++) {
        if (covered(fromPlusX, x, y)) foreground++
        if (covered(fromPlusX, x, y) !== covered(fromMinusX, 199 - x, y)) different++
        if (covered(fromPlusX, x, y) !== covered(fromPlusX, 199 - x, y)) asymmetric++
      }
    }
    expect(foreground).toBeGreaterThan(3000)
    expect(different / foreground).toBeLessThan(0.02)
    expect(asymmetric / foreground).toBeGreaterThan(0.2)
  })

  it('takes the renderingKey instead of headers; not the modelKey', async () => {
    const withKey = await fetch(imageUrl({ w: 64, h: 48, key: session.renderingKey }))
    expect(withKey.status).toBe(200)
    expect(imageSize(Buffer.from(await withKey.arrayBuffer()))).toEqual({ type: 'png', width: 64, height: 48 })
    expect((await fetch(imageUrl({ w: 64, h: 48, key: session.modelKey }))).status).toBe(403)
    expect((await fetch(imageUrl({ w: 64, h: 48 }))).status).toBe(401)
  })

  it('answers 409 for a webgl renderer', async () => {
    const response = await fetch(imageUrl({ w: 64, h: 48 }, webgl), { headers: auth() })
    expect(response.status).toBe(409)
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /webgl renderer.*headless/,
    )
  })

  it.each([
    [{ h: 48 }, /w:/],
    [{ w: 0, h: 48 }, /w: must be an integer from 1 to 4096/],
    [{ w: 4097, h: 48 }, /w: must be an integer from 1 to 4096/],
    [{ w: 10.5, h: 48 }, /w: must be an integer/],
    [{ w: 'wide', h: 48 }, /w: must be an integer/],
    [{ w: 64, h: -1 }, /h: must be an integer/],
    [{ w: 64, h: 48, type: 'gif' }, /type: must be one of png, jpeg, webp/],
    [{ w: 64, h: 48, px: 1, py: 2 }, /px, py, pz/],
    [{ w: 64, h: 48, vx: 0, vy: 0, vz: 0 }, /view direction must not be zero/],
    [{ w: 64, h: 48, a: 180 }, /a:/],
  ])('answers 422 to %o, its fields under ["query"]', async (query, message) => {
    const response = await fetch(imageUrl(query), { headers: auth() })
    expect(response.status).toBe(422)
    const body = ZErrorBody.parse(await response.json())
    expect(body.error.code).toBe('unprocessable_entity')
    expect(body.error.message).toMatch(message)
    expect(body.error.fields?.length).toBeGreaterThan(0)
    for (const { path } of body.error.fields ?? []) expect(path[0]).toBe('query')
  })

  it('names a bad width as ["query", "w"]', async () => {
    const body = ZErrorBody.parse(await (await fetch(imageUrl({ w: 0, h: 48 }), { headers: auth() })).json())
    expect(body.error.fields).toEqual([{ path: ['query', 'w'], message: 'must be an integer from 1 to 4096' }])
  })

  it("draws a snapshot in its frozen scene, with its own shader files and key, after the session's scene changed", async () => {
    const taken = await fetch(`${server.url}/api/configsessions/${session.id}/snapshots`, {
      method: 'POST',
      headers: auth(),
    })
    expect(taken.status, await taken.clone().text()).toBe(201)
    const snapshot = (await taken.json()) as { id: string; modelKey: string }
    await setScene({ materials: {} })
    try {
      const response = await fetch(
        `${server.url}/api/snapshots/${snapshot.id}/image?w=200&h=150&key=${encodeURIComponent(snapshot.modelKey)}`,
      )
      expect(response.status).toBe(200)
      expect(decodePng(Buffer.from(await response.arrayBuffer())).at(100, 75)).toSatisfy(isRed)
      expect(
        (
          await fetch(
            `${server.url}/api/snapshots/${snapshot.id}/image?w=20&h=20&key=${encodeURIComponent(session.modelKey)}`,
          )
        ).status,
      ).toBe(403)
    } finally {
      await setScene(RED)
    }
  })

  it('shows a part whose shader does not compile in its own colour and says why', async () => {
    await setScene({ materials: { '0': { vertexShader: 'pass.vert', fragmentShader: 'broken.frag' } } })
    try {
      const { response, bytes } = await image({ w: 200, h: 150 })
      expect(response.headers.get('x-render-warnings')).toMatch(/material 0: shader error: .*ERROR/)
      const [r, g, b, a] = decodePng(bytes).at(100, 75)
      expect(a).toBe(255)
      expect(r).toBeGreaterThan(120)
      expect(g).toBeGreaterThan(40) // orange, not the shader's red
      expect(b).toBeLessThan(r)
    } finally {
      await setScene(RED)
    }
  })

  it('answers 504 to a shader that never finishes, and the next image renders on a fresh browser', async () => {
    await setScene({
      materials: {
        '0': {
          vertexShader: 'pass.vert',
          fragmentShader: 'runaway.frag',
          uniforms: { n: { type: 'int', value: 2_000_000_000 } },
        },
      },
    })
    try {
      const response = await fetch(imageUrl({ w: 400, h: 300 }), { headers: auth() })
      expect(response.status).toBe(504)
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/longer than 10 s/)
    } finally {
      await setScene(RED)
    }
    const pixels = decodePng((await image({ w: 200, h: 150 })).bytes)
    expect(pixels.at(100, 75)).toSatisfy(isRed)
  })

  it('answers 429 with Retry-After past the queue (1 page, 2 waiting)', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => fetch(imageUrl({ w: 1920, h: 1080 }), { headers: auth() })),
    )
    const statuses = responses.map((response) => response.status).sort()
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(3)
    const refused = responses.filter((response) => response.status === 429)
    expect(refused.length).toBeGreaterThan(0)
    for (const response of refused) expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true)
  })

  it('relaunches a crashed browser transparently', async () => {
    const browsers = execFileSync('pgrep', ['-P', String(server.child.pid), 'chromium'], { encoding: 'utf8' })
      .trim()
      .split('\n')
    expect(browsers.length).toBeGreaterThan(0)
    for (const pid of browsers) process.kill(Number(pid), 'SIGKILL')
    const pixels = decodePng((await image({ w: 200, h: 150 })).bytes)
    expect(pixels.at(100, 75)).toSatisfy(isRed)
  })
})
