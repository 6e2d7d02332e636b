import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodePng } from '@/test/support/decode-image'
import { createTestDatabase, dropTestDatabase } from '@/test/support/postgres'
import { signIn, startServer, stopServer, tempDir, type StartedServer } from '@/test/support/start-server'

// A render must never lead to another render, and work for a client that left must stop.
// The server runs on PostgreSQL so that a test can store a scene directly, as an old row
// written before the address check would be. One page, one waiting place: counts show the
// pool's state. The time limit is far beyond the test's own time out: only a cancelled
// render that is really stopped lets the queue move on in time.

const FILES = {
  'configurator/main.scad': 'color("orange") cube([20, 20, 20]);',
  'renderer/pass.vert': 'void main(){gl_Position=projectionMatrix*modelViewMatrix*vec4(position,1.0);}',
  'renderer/red.frag': 'void main(){gl_FragColor=vec4(1.,0.,0.,1.);}',
  'renderer/textured.frag':
    'uniform sampler2D picture; void main(){gl_FragColor=vec4(texture2D(picture, vec2(0.5)).rgb, 1.0);}',
  // Billions of iterations: on SwiftShader this runs for minutes and wedges the browser's GPU process.
  'renderer/runaway.frag':
    '#version 300 es\nprecision highp float; ' +
    'uniform int n; out vec4 c; void main(){ ' +
    'float s=0.; for(int i=0;i<n;i++){ ' +
    's+=sin(float(i)); } c=vec4(fract(s),0.,0.,1.); }',
}
const RED = { materials: { '0': { vertexShader: 'pass.vert', fragmentShader: 'red.frag' } } }

interface Session {
  id: string
  renderingKey: string
  renderSessions: { rendererType: string; sessionId: string }[]
}

let server: StartedServer
let databaseUrl: string
let token: string
let looping: { session: Session; renderer: string }
let normal: { session: Session; renderer: string }
let internal: http.Server

const auth = () => ({ authorization: `Bearer ${token}` })
const port = () => new URL(server.url).port

function imagePath({ session, renderer }: typeof looping, query = 'w=200&h=150'): string {
  return `/api/configsessions/${session.id}/renderers/${renderer}/image?${query}`
}

async function openSession(configuratorId: string): Promise<typeof looping> {
  const response = await fetch(`${server.url}/api/configsessions`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify({ configuratorId }),
  })
  const session = (await response.json()) as Session
  return {
    session,
    renderer: session.renderSessions.find((renderer) => renderer.rendererType === 'headless')!.sessionId,
  }
}

/** PUT .../scene over a raw socket, so the Host header is the one given. */
function putScene(
  target: typeof looping,
  scene: object,
  host = `127.0.0.1:${port()}`,
): Promise<{ status: number; body: string }> {
  const body = JSON.stringify(scene)
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${server.url}/api/configsessions/${target.session.id}/renderers/${target.renderer}/scene`,
      {
        method: 'PUT',
        headers: { ...auth(), host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
    )
    request.on('response', (response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => (text += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
    })
    request.on('error', reject)
    request.end(body)
  })
}

/** Stores scene settings directly, past every check of the API. */
async function storeScene(target: typeof looping, scene: object): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rowCount } = await client.query(
      'UPDATE "RenderSession" SET scene = $1::jsonb, "renderLog" = \'\' WHERE id = $2',
      [JSON.stringify(scene), target.renderer],
    )
    expect(rowCount).toBe(1)
  } finally {
    await client.end()
  }
}

const textured = (urls: Record<string, string>) => ({
  materials: {
    '0': {
      vertexShader: 'pass.vert',
      fragmentShader: 'textured.frag',
      uniforms: Object.fromEntries(
        Object.entries(urls).map(([name, url]) => [name, { type: 'sampler2d', value: { url, external: true } }]),
      ),
    },
  },
})

/** The renders this server has started so far, from an image's Server-Timing. */
function renderCount(response: Response): number {
  const match = /renders;desc="(\d+)"/.exec(response.headers.get('server-timing') ?? '')
  if (!match) throw new Error(`no render count in ${response.headers.get('server-timing')}`)
  return Number(match[1])
}

/** The first of these requests to answer, and which it is. */
function firstAnswer(requests: Promise<Response | Error>[]): Promise<{ response: Response | Error; index: number }> {
  return Promise.race(requests.map((request, index) => request.then((response) => ({ response, index }))))
}

const status = (response: Response | Error) => (response instanceof Response ? response.status : response.message)

const occurrences = (text: string) => server.output().split(text).length - 1

async function outputContains(text: string, times = 1): Promise<void> {
  for (let i = 0; i < 1200 && occurrences(text) < times; i++) await new Promise((resolve) => setTimeout(resolve, 50))
  expect(occurrences(text), server.output()).toBe(times)
}

beforeAll(async () => {
  // Stands in for an internal service an external texture must never reach.
  internal = http.createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'image/png' }).end('secret'),
  )
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve))
  databaseUrl = await createTestDatabase()
  server = await startServer({
    DATA_DIR: tempDir(),
    DATABASE_URL: databaseUrl,
    SEED_DEMO: 'false',
    RENDER_PAGES: '1',
    RENDER_QUEUE: '1',
    RENDER_TIME_LIMIT_SECONDS: '600',
  })
  token = await signIn(server.url)
  const created = await fetch(`${server.url}/api/configurators`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Loop', mainFile: 'main.scad', rendererType: 'headless' }),
  })
  const { UUID } = (await created.json()) as { UUID: string }
  for (const [path, body] of Object.entries(FILES)) {
    expect(
      (await fetch(`${server.url}/api/configurators/${UUID}/files/${path}`, { method: 'PUT', headers: auth(), body }))
        .status,
    ).toBe(202)
  }
  looping = await openSession(UUID)
  normal = await openSession(UUID)
  expect((await putScene(normal, RED)).status).toBe(200)
}, 180_000)

afterAll(async () => {
  await stopServer(server)
  await dropTestDatabase(databaseUrl)
  await new Promise<void>((resolve) => internal.close(() => resolve()))
})

describe('a texture that leads back to this server', () => {
  it.each([
    [
      "the session's own image URL",
      () => `${server.url}${imagePath(looping, `w=64&h=48&key=${looping.session.renderingKey}`)}`,
    ],
    ['127.1', () => `http://127.1:${port()}/x.png`],
    ['2130706433', () => `http://2130706433:${port()}/x.png`],
    ['0x7f.0.0.1', () => `http://0x7f.0.0.1:${port()}/x.png`],
    ['0177.0.0.1', () => `http://0177.0.0.1:${port()}/x.png`],
    ['localhost', () => `http://localhost:${port()}/x.png`],
    ['localhost.', () => `http://localhost.:${port()}/x.png`],
    ['foo.localhost', () => `http://foo.localhost:${port()}/x.png`],
    ['[::1]', () => `http://[::1]:${port()}/x.png`],
    ['[::ffff:127.0.0.1]', () => `http://[::ffff:127.0.0.1]:${port()}/x.png`],
    ['[0:0:0:0:0:0:0:1]', () => `http://[0:0:0:0:0:0:0:1]:${port()}/x.png`],
    ['0.0.0.0', () => `http://0.0.0.0:${port()}/x.png`],
    ['[::]', () => `http://[::]:${port()}/x.png`],
    ["the machine's name, another port", () => `https://${os.hostname()}/x.png`],
  ])('is refused on the scene update with 422 naming the field: %s', async (_name, url) => {
    const { status, body } = await putScene(looping, textured({ picture: url() }))
    expect(status, body).toBe(422)
    const { error } = JSON.parse(body) as { error: { code: string; message: string } }
    expect(error.code).toBe('unprocessable_entity')
    expect(error.message).toMatch(
      /^materials\.0\.uniforms\.picture\.value\.url: .* (is not a public address|is this server)/,
    )
    expect(error.message).not.toContain(looping.session.renderingKey)
  })

  it('is refused when it names the host the update came in on, on any port', async () => {
    const host = 'configurator.example.org'
    const refused = await putScene(looping, textured({ picture: `https://${host}:8443/x.png` }), `${host}:${port()}`)
    expect(refused.status, refused.body).toBe(422)
    expect(refused.body).toContain(`materials.0.uniforms.picture.value.url: ${host} is this server`)
    // The same name is an ordinary external texture when the update came in on another name.
    const accepted = await putScene(looping, textured({ picture: `https://${host}:8443/x.png` }))
    expect(accepted.status, accepted.body).toBe(200)
  })

  it('stored past the check, renders once, completes and starts no second render', async () => {
    const own = `${server.url}${imagePath(looping, `w=64&h=48&key=${looping.session.renderingKey}`)}`
    const localhost = own.replace('127.0.0.1', 'localhost')
    await storeScene(looping, textured({ picture: own, other: localhost }))
    const before = await fetch(`${server.url}${imagePath(normal)}`, { headers: auth() })
    expect(before.status).toBe(200)

    const response = await fetch(`${server.url}${imagePath(looping)}`, { headers: auth() })
    expect(response.status, await response.clone().text()).toBe(200)
    const warnings = response.headers.get('x-render-warnings') ?? ''
    const ownPath = `${server.url}/api/configsessions/${looping.session.id}/renderers/${looping.renderer}/image`
    expect(warnings).toContain(`request to this server ${ownPath} refused`)
    expect(warnings).toMatch(/external texture http:\/\/localhost:\d+\/.* refused: localhost is not a public address/)

    const after = await fetch(`${server.url}${imagePath(normal)}`, { headers: auth() })
    expect(after.status).toBe(200)
    expect([renderCount(response), renderCount(after)]).toEqual([renderCount(before) + 1, renderCount(before) + 2])
  })

  it('stored past the check on an internal address, is refused when fetched, renders blank and is reported', async () => {
    const url = `http://127.0.0.1:${(internal.address() as AddressInfo).port}/texture.png`
    await storeScene(looping, textured({ picture: url }))
    const response = await fetch(`${server.url}${imagePath(looping)}`, { headers: auth() })
    expect(response.status).toBe(200)
    const warnings = response.headers.get('x-render-warnings') ?? ''
    expect(warnings).toContain(`external texture ${url} refused: 127.0.0.1 is not a public address`)
    expect(warnings).toMatch(/material 0: uniform picture: texture .* could not be loaded/)
    expect(decodePng(Buffer.from(await response.arrayBuffer())).at(100, 75)).toEqual([255, 255, 255, 255]) // the blank texture is white
    const log = async () =>
      (
        (await (
          await fetch(`${server.url}/api/configsessions/${looping.session.id}/log`, { headers: auth() })
        ).json()) as { error: string }
      ).error
    expect(await log()).toContain(
      `renderer ${looping.renderer}: external texture ${url} refused: 127.0.0.1 is not a public address`,
    )
    // The log told about the settings of that image; new settings start a clean one.
    expect((await putScene(looping, RED)).status).toBe(200)
    expect(await log()).not.toContain('refused')
  })

  it("refuses an image to the renderer's own requests (403), whatever the URL checks let through", async () => {
    const response = await fetch(`${server.url}${imagePath(normal)}`, {
      headers: { ...auth(), 'user-agent': 'Paraform renderer (headless Chromium)' },
    })
    expect(response.status).toBe(403)
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'A render cannot request another image',
    )
  })
})

describe('an image request whose client went away', () => {
  it(
    'leaves the queue, and its running render is stopped so the next one gets the page',
    { timeout: 90_000 },
    async () => {
      // The refused marker request shows in the server's output once the render runs in the page.
      const marker = `${server.url}/render-started-marker`
      await storeScene(looping, {
        materials: {
          '0': {
            vertexShader: 'pass.vert',
            fragmentShader: 'runaway.frag',
            uniforms: {
              n: { type: 'int', value: 2_000_000_000 },
              marker: { type: 'sampler2d', value: { url: marker, external: true } },
            },
          },
        },
      })
      const running = new AbortController()
      const runaway = fetch(`${server.url}${imagePath(looping)}`, { headers: auth(), signal: running.signal }).catch(
        (error: Error) => error,
      )
      await outputContains('/render-started-marker refused')

      // The page is taken: of two more requests one waits in the one place and the other gets 429.
      const first = [new AbortController(), new AbortController()]
      const refused = await firstAnswer(
        first.map((controller) =>
          fetch(`${server.url}${imagePath(normal, 'w=1&h=1')}`, { headers: auth(), signal: controller.signal }).catch(
            (error: Error) => error,
          ),
        ),
      )
      expect(status(refused.response)).toBe(429)
      first[1 - refused.index]!.abort()
      await outputContains('cancelled by its client while waiting for a page')

      // Its place is free again: of two new requests exactly one is refused, the other waits.
      const second = [0, 1].map(() =>
        fetch(`${server.url}${imagePath(normal)}`, { headers: auth() }).catch((error: Error) => error),
      )
      const secondRefused = await firstAnswer(second)
      expect(status(secondRefused.response)).toBe(429)

      running.abort()
      await outputContains('cancelled by its client while rendering')
      const waited = await second[1 - secondRefused.index]!
      if (!(waited instanceof Response)) throw waited
      expect(waited.status, await waited.clone().text()).toBe(200)
      const [r, g, b] = decodePng(Buffer.from(await waited.arrayBuffer())).at(100, 75)
      expect([r > 240, g < 15, b < 15]).toEqual([true, true, true])
      expect(await runaway).toBeInstanceOf(Error)
      // The wedged page did not answer, so the browser was replaced as the time limit would have.
      expect(occurrences('the cancelled render does not answer; restarting Chromium')).toBe(1)
    },
  )
})
