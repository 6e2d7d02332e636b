import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import * as sessions from '@/lib/sessions/operations'
import { api, readBody } from '@/test/support/api-client'
import { expectError, openSession, registerApplication } from '@/test/support/fixtures'
import { COUNT_TO_N } from '@/test/support/models'
import { readParts } from '@/test/support/print-ready'

// gltf-validator ships no type declarations; this is the part of its API the test uses.
const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(bytes: Uint8Array): Promise<{ issues: { numErrors: number } }>
}

const TWO_PARTS = `
size = 10; // [1:1:50]
color("red") cube(size);
color("blue") translate([20, 0, 0]) cube(5);
`

const BOX = `
width = 40; // [10:1:100]
depth = 30; // [10:1:100]
echo("size", width, depth);
cube([width, depth, 5]);
`

// Counts to n: the build takes time in proportion to n (about a second per million), reading its parameters none.
const LOOP = `${COUNT_TO_N}cube(1);\n`

// Models below declare a parameter even when they need none: a model without any Customizer
// parameter trips the bug shown in 'a model without Customizer parameters'.
const withParameter = (source: string) => `unused = 1; // [1:5]\n${source}`
const SHELF =
  'width = 120; // [60:10:300]\ndepth = ' +
  '200; // [60:10:300]\ncube([width, depth, ' +
  '10]);\nassert(depth <= width, "The shelf ' +
  'must be at least as wide as it is deep");\n'

type Session = Awaited<ReturnType<typeof openSession>>

const put = (s: Session, body: Record<string, { value: unknown }>) =>
  api('PUT', `/configsessions/${s.session.id}/parameters`, { token: s.token, body })
const get = (s: Session, resource: string) =>
  api('GET', `/configsessions/${s.session.id}/${resource}`, { token: s.token })
const getJson = async (s: Session, resource: string) => {
  const response = await get(s, resource)
  expect(response.status).toBe(200)
  return response.json()
}
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer())

/** Triangles of a binary STL, with their bounds and enclosed volume computed here, independently of the server. */
function readStl(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const count = view.getUint32(80, true)
  expect(bytes.byteLength).toBe(84 + 50 * count)
  const min = [Infinity, Infinity, Infinity]
  const max = [-Infinity, -Infinity, -Infinity]
  let sixfoldVolume = 0
  for (let t = 0; t < count; t++) {
    const corner = (c: number) =>
      [0, 1, 2].map((axis) => view.getFloat32(84 + t * 50 + 12 + c * 12 + axis * 4, true)) as [number, number, number]
    const [a, b, c] = [corner(0), corner(1), corner(2)]
    for (const point of [a, b, c]) {
      point.forEach((value, axis) => {
        min[axis] = Math.min(min[axis]!, value)
        max[axis] = Math.max(max[axis]!, value)
      })
    }
    // a · (b × c): six times the signed volume of the tetrahedron (origin, a, b, c).
    sixfoldVolume +=
      a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) + a[2] * (b[0] * c[1] - b[1] * c[0])
  }
  const [minX, minY, minZ] = min as [number, number, number]
  const [maxX, maxY, maxZ] = max as [number, number, number]
  return { count, boundingBox: { minX, maxX, minY, maxY, minZ, maxZ }, volume: sixfoldVolume / 6 }
}

function readGlbJson(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const jsonLength = view.getUint32(12, true)
  return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength))) as {
    meshes: { name: string; primitives: { material: number }[] }[]
    materials: { pbrMetallicRoughness: { baseColorFactor: number[] } }[]
  }
}

describe('model formats', () => {
  it.each([
    ['stl', 'model/stl'],
    ['3mf', 'model/3mf'],
    ['glb', 'model/gltf-binary'],
    ['off', 'model/off'],
  ])('answers the model as %s (%s) with a default file name', async (type, contentType) => {
    const owner = await openSession(TWO_PARTS)
    const response = await get(owner, `model?type=${type}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(contentType)
    expect(response.headers.get('content-disposition')).toContain(`filename="model.${type}"`)
    const bytes = await bytesOf(response)
    expect(Number(response.headers.get('content-length'))).toBe(bytes.byteLength)
  })

  it('stl, the default type, is binary STL of both parts', async () => {
    const owner = await openSession(TWO_PARTS)
    const bytes = await bytesOf(await get(owner, 'model'))
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).not.toBe('solid') // or readers take it for ASCII STL
    const stl = readStl(bytes)
    expect(stl.count).toBe(24) // two cubes, 12 triangles each
    expect(stl.boundingBox).toEqual({ minX: 0, maxX: 25, minY: 0, maxY: 10, minZ: 0, maxZ: 10 })
    expect(stl.volume).toBeCloseTo(1000 + 125, 6)
  })

  it('3mf is one object with a named, coloured part per colour, in order of appearance', async () => {
    const owner = await openSession(TWO_PARTS)
    const { objects } = readParts(await bytesOf(await get(owner, 'model?type=3mf')))
    expect(objects).toHaveLength(1)
    const { parts } = objects[0]!
    expect(parts.map(({ name, color }) => [name, color])).toEqual([
      ['Red', '#FF0000'],
      ['Blue', '#0000FF'],
    ])
    expect(parts.map(({ positions }) => Math.max(...positions.filter((_, i) => i % 3 === 0)))).toEqual([10, 25])
  })

  it('glb passes the Khronos validator with one mesh per colour', async () => {
    const owner = await openSession(TWO_PARTS)
    const bytes = await bytesOf(await get(owner, 'model?type=glb'))
    const report = await validator.validateBytes(bytes)
    expect(report.issues.numErrors).toBe(0)
    const gltf = readGlbJson(bytes)
    expect(gltf.meshes).toHaveLength(2)
    const colours = gltf.meshes.map(
      (mesh) => gltf.materials[mesh.primitives[0]!.material]!.pbrMetallicRoughness.baseColorFactor,
    )
    expect(colours).toEqual([
      [1, 0, 0, 1],
      [0, 0, 1, 1],
    ])
  })

  it('off is OFF text', async () => {
    const owner = await openSession(TWO_PARTS)
    const text = await (await get(owner, 'model?type=off')).text()
    expect(text.startsWith('OFF')).toBe(true)
    const [vertexCount, faceCount] = text.slice(3).trim().split(/\s+/).slice(0, 2).map(Number)
    expect([vertexCount, faceCount]).toEqual([16, 24]) // two cubes: 8 corners and 12 triangles each
  })

  it('uses the filename query in Content-Disposition', async () => {
    const owner = await openSession(TWO_PARTS)
    const response = await get(owner, `model?filename=${encodeURIComponent('my part.stl')}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="my part\.stl"/)
  })

  it('refuses an unknown type with 422 listing the supported ones', async () => {
    const owner = await openSession(TWO_PARTS)
    for (const resource of ['model', 'finalizedmodel']) {
      await expectError(
        await get(owner, `${resource}?type=obj`),
        422,
        'unprocessable_entity',
        /type.*stl, 3mf, glb, usdz, off/,
      )
    }
  })
})

describe('object info', () => {
  it('agrees with the volume and bounds of the STL triangles', async () => {
    const owner = await openSession(
      withParameter('union() { sphere(10, $fn = 48); translate([0, 0, 5]) cylinder(h = 20, r = 4, $fn = 30); }'),
    )
    const stl = readStl(await bytesOf(await get(owner, 'model')))
    const info = await getJson(owner, 'objectinfo')
    expect(stl.volume).toBeGreaterThan(0) // outward-facing triangles
    expect(Math.abs(info.volume - stl.volume) / stl.volume).toBeLessThan(1e-6)
    expect(info.volume).toBeLessThan((4 / 3) * Math.PI * 1000 + Math.PI * 16 * 15)
    expect(info.boundingBox).toEqual(stl.boundingBox)
    expect(info.boundingBox.maxZ).toBeCloseTo(25, 5)
  })

  it('counts the overlap of differently coloured parts once', async () => {
    const owner = await openSession(
      withParameter('color("red") cube(10); color("blue") translate([5, 5, 5]) cube(10);'),
    )
    const info = await getJson(owner, 'objectinfo')
    expect(info.volume).toBeCloseTo(2000 - 125, 6)
    expect(readStl(await bytesOf(await get(owner, 'model'))).volume).toBeCloseTo(2000 - 125, 6)
  })
})

describe('model keys', () => {
  const modelUrl = (s: Session, resource: string, key: string) =>
    `/configsessions/${s.session.id}/${resource}?key=${encodeURIComponent(key)}`

  afterEach(() => {
    vi.useRealTimers()
  })

  it.each(['model', 'finalizedmodel'])(
    '%s works with ?key=modelKey and no headers, even beside a garbage Authorization header',
    async (resource) => {
      const owner = await openSession(TWO_PARTS)
      const bare = await api('GET', modelUrl(owner, resource, owner.session.modelKey))
      expect(bare.status).toBe(200)
      expect(readStl(await bytesOf(bare)).count).toBeGreaterThan(0)
      // The key replaces both headers, so a broken Authorization or X-API-KEY is not even looked at.
      const withGarbage = await api('GET', modelUrl(owner, resource, owner.session.modelKey), {
        headers: { authorization: 'Bearer not-a-token', 'x-api-key': 'nope' },
      })
      expect(withGarbage.status).toBe(200)
    },
  )

  it.each([
    ['a made-up key', () => 'not-a-key'],
    ['an empty key', () => ''],
    [
      'the modelKey with a changed signature',
      (s: Session) => `${s.session.modelKey.slice(0, -2)}${s.session.modelKey.endsWith('AA') ? 'BB' : 'AA'}`,
    ],
    ['the renderingKey', (s: Session) => s.session.renderingKey],
  ])('refuses %s with 403', async (_case, keyOf) => {
    const owner = await openSession(TWO_PARTS)
    for (const resource of ['model', 'finalizedmodel']) {
      await expectError(await api('GET', modelUrl(owner, resource, keyOf(owner))), 403, 'forbidden')
    }
  })

  it("refuses another session's modelKey, even of the same owner and configurator", async () => {
    const owner = await openSession(TWO_PARTS)
    const other = await api('POST', '/configsessions', {
      token: owner.token,
      body: { configuratorId: owner.configuratorId },
    })
    const { modelKey } = await readBody(other, sessions.createSession)
    for (const resource of ['model', 'finalizedmodel']) {
      await expectError(await api('GET', modelUrl(owner, resource, modelKey)), 403, 'forbidden')
    }
  })

  it('refuses an expired modelKey', async () => {
    const owner = await openSession(TWO_PARTS)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 8 * 24 * 3600 * 1000) // the keys live 7 days by default
    await expectError(await api('GET', modelUrl(owner, 'model', owner.session.modelKey)), 403, 'forbidden')
  })
})

describe('finalized model', () => {
  it('uses extraSettings.quality.final where model uses .preview', async () => {
    const owner = await openSession(withParameter('sphere(10);'), {
      extraSettings: { quality: { preview: { $fn: 8 }, final: { $fn: 64 } } },
    })
    const preview = readStl(await bytesOf(await get(owner, 'model')))
    const final = readStl(await bytesOf(await get(owner, 'finalizedmodel')))
    expect(preview.count).toBeGreaterThan(0)
    expect(final.count).toBeGreaterThan(20 * preview.count)
    expect(final.boundingBox.maxX).toBeGreaterThan(preview.boundingBox.maxX) // a finer sphere reaches closer to r = 10
  })

  it('with secureModel, needs the server token; the preview model still works with the modelKey', async () => {
    const owner = await openSession(TWO_PARTS)
    const { key, secretKey } = await registerApplication(owner.token, owner.configuratorId, { secureModel: true })
    const tokenFor = async (response: Response) => {
      expect(response.status).toBe(200)
      return ((await response.json()) as { accessToken: string }).accessToken
    }
    const anonymous = await tokenFor(await api('POST', '/auth/anonymous', { headers: { 'x-api-key': key } }))
    const server = await tokenFor(await api('POST', '/auth/application', { body: { key, secretKey } }))
    const opened = await api('POST', '/configsessions', {
      token: anonymous,
      headers: { 'x-api-key': key },
      body: { configuratorId: owner.configuratorId },
    })
    const session = await readBody(opened, sessions.createSession)
    const call = (resource: string, options: { token?: string; key?: string }) =>
      api(
        'GET',
        `/configsessions/${session.id}/${resource}${options.key ? `?key=${encodeURIComponent(options.key)}` : ''}`,
        {
          token: options.token,
          headers: options.token ? { 'x-api-key': key } : {},
        },
      )

    await expectError(await call('finalizedmodel', { token: anonymous }), 403, 'forbidden', /server token/)
    await expectError(await call('finalizedmodel', { key: session.modelKey }), 403, 'forbidden', /server token/)
    expect((await call('finalizedmodel', { token: server })).status).toBe(200)
    expect((await call('model', { key: session.modelKey })).status).toBe(200)
    expect((await call('model', { token: anonymous })).status).toBe(200)
  })
})

describe('a model that does not build', () => {
  it.each([
    ['a syntax error', 'cube(1);\nsphere(2);\ntranslate([0, 0) cube(3);\ncube(4);\n', /syntax error.*line 3/],
    [
      'an unknown module (only a warning, but nothing is left to export)',
      withParameter('undefined_module();\n'),
      /unknown module 'undefined_module'.*line 2/,
    ],
    // OpenSCAD exits 0 and writes the cube made before the assert: the values are refused all the same.
    [
      'a failed assert',
      SHELF,
      /ERROR: Assertion '\(depth <= width\)' failed: "The shelf must be at least as wide as it is deep"/,
    ],
  ])(
    '%s: PUT still answers 200, log.error says where, model and objectinfo answer 409',
    async (_case, source, error) => {
      const owner = await openSession(source)
      expect((await put(owner, {})).status).toBe(200)
      const log = await getJson(owner, 'log')
      expect(log.error).toMatch(error)
      for (const resource of ['model', 'finalizedmodel', 'objectinfo']) {
        await expectError(
          await get(owner, resource),
          409,
          'conflict',
          new RegExp(`/configsessions/${owner.session.id}/log`),
        )
      }
    },
  )

  it('an unknown module beside real geometry only warns; the rest builds', async () => {
    const owner = await openSession(withParameter('undefined_module();\ncube(2);\n'))
    expect((await put(owner, {})).status).toBe(200)
    expect((await getJson(owner, 'log')).error).toMatch(/WARNING: .*unknown module 'undefined_module'/)
    expect((await getJson(owner, 'objectinfo')).volume).toBeCloseTo(8, 6)
  })
})

describe('a model without Customizer parameters', () => {
  // OpenSCAD exports such a model's parameters as {"title": "main"}, without a "parameters" array.
  it('has an empty parameter set and builds', async () => {
    const owner = await openSession('cube(2);')
    expect(await getJson(owner, 'parameters')).toEqual({})
    expect((await put(owner, {})).status).toBe(200)
    expect((await getJson(owner, 'objectinfo')).volume).toBeCloseTo(8, 6)
    expect((await get(owner, 'model')).status).toBe(200)
  })
})

describe('concurrent PUTs on one session', () => {
  it('answer one of the states sent, the last to answer the stored one, which parameters, objectinfo and log describe', async () => {
    const owner = await openSession(BOX)
    const sizes = Array.from({ length: 8 }, (_, n) => ({ width: 20 + n, depth: 90 - n }))
    const answered: { width: number; depth: number }[] = []
    await Promise.all(
      sizes.map(async ({ width, depth }) => {
        const response = await put(owner, { width: { value: width }, depth: { value: depth } })
        expect(response.status).toBe(200)
        const parameters = await response.json()
        answered.push({ width: parameters.width.value, depth: parameters.depth.value })
      }),
    )
    for (const state of answered) expect(sizes).toContainEqual(state)

    const parameters = await getJson(owner, 'parameters')
    const { width, depth } = { width: parameters.width.value as number, depth: parameters.depth.value as number }
    expect(answered.at(-1)).toEqual({ width, depth })
    const info = await getJson(owner, 'objectinfo')
    expect(info.boundingBox).toEqual({ minX: 0, maxX: width, minY: 0, maxY: depth, minZ: 0, maxZ: 5 })
    expect((await getJson(owner, 'log')).message).toContain(`ECHO: "size", ${width}, ${depth}`)
    expect(readStl(await bytesOf(await get(owner, 'model'))).boundingBox).toEqual(info.boundingBox)
  })
})

describe('build cache', () => {
  it('builds each distinct state once across the sessions of a configurator', async () => {
    const { db } = await import('@/lib/db')
    // Only this model's builds are counted (they echo its tag): other tests' cancelled builds may still land.
    // Closing the parts for objectinfo's print report runs the model too, cached apart.
    const { buildStored } = await import('@/lib/builds/build-cache')
    // Builds are answered first and stored after: counted once stored.
    const builds = async () => (
      await buildStored(),
      db.cacheEntry.count({
        where: { logMessage: { contains: 'build-once-test' }, NOT: { key: { startsWith: 'parts:' } } },
      })
    )
    const owner = await openSession(`${BOX}echo("build-once-test");\n`)
    // Opening a session starts the build of its defaults in the background: counted once it is done.
    expect((await get(owner, 'objectinfo')).status).toBe(200)
    // Each PUT starts its build; the model waits for it to end.
    const configure = async (session: typeof owner, values: Record<string, { value: number }>) => {
      expect((await put(session, values)).status).toBe(200)
      expect((await get(session, 'model')).status).toBe(200)
    }
    await configure(owner, { width: { value: 50 } })
    const rowsAfterFirstBuild = await builds()
    expect(rowsAfterFirstBuild).toBe(3) // the parameter read (it echoes too), the defaults and width 50

    const opened = await api('POST', '/configsessions', {
      token: owner.token,
      body: { configuratorId: owner.configuratorId },
    })
    const second = { ...owner, session: await readBody(opened, sessions.createSession) }
    await configure(second, { width: { value: 50 } })
    expect(await builds()).toBe(rowsAfterFirstBuild)
    await configure(second, { width: { value: 50 }, depth: { value: 30 } }) // the current state again
    expect(await builds()).toBe(rowsAfterFirstBuild)
    expect((await getJson(second, 'objectinfo')).boundingBox.maxX).toBe(50)

    await configure(second, { width: { value: 51 } })
    expect(await builds()).toBe(rowsAfterFirstBuild + 1)
  })

  it('answers a build made by this process (here, or by its build worker on the queue) from memory, never read back from storage', async () => {
    const { storage } = await import('@/lib/storage/object-storage')
    const { env } = await import('@/lib/env')
    const owner = await openSession(`${BOX}echo("handed over");\n`)
    expect((await get(owner, 'parameters')).status).toBe(200)
    const reads = vi.spyOn(storage, 'readBuffer')
    expect((await put(owner, { width: { value: 61 } })).status).toBe(200)
    const model = await get(owner, 'model')
    expect(model.status).toBe(200)
    expect(['built', 'memory']).toContain(model.headers.get('x-build-cache'))
    // On PostgreSQL a build's one read is the cache's lookup before building (it misses; another
    // test's background work may look up its own keys meanwhile); the embedded database's process
    // knows the key was never stored and reads nothing. No key is read back after its build.
    const keys = reads.mock.calls.map(([key]) => key).filter((key) => key.startsWith('cache/'))
    if (env.DATABASE_URL) {
      expect(keys.length).toBeGreaterThanOrEqual(1)
      expect(new Set(keys).size).toBe(keys.length)
    } else expect(keys).toEqual([])
  })

  it("does not serve a build stopped by one configurator's time limit to a configurator that allows more time", async () => {
    const source = `${LOOP}// shared by both configurators\n`
    const patient = await openSession(source) // the server maximum, 60 s
    expect((await get(patient, 'parameters')).status).toBe(200)
    const hasty = await openSession(source, { extraSettings: { limits: { buildSeconds: 0.5 } } })
    expect((await put(hasty, { n: { value: 1_500_000 } })).status).toBe(200)
    expect((await getJson(hasty, 'log')).error).toMatch(/time limit of 0.5 s/)

    expect((await put(patient, { n: { value: 1_500_000 } })).status).toBe(200)
    const log = await getJson(patient, 'log')
    expect(log.error).toBe('')
    expect(log.message).toContain('ECHO: 1.5e+6')
  }, 60_000)
})

describe('hostile models', () => {
  // Every case gets its own width on a healthy session, so the check after it really builds.
  let healthyWidth = 60
  async function expectServerStillBuilds() {
    const healthy = await openSession(BOX)
    healthyWidth += 1
    expect((await put(healthy, { width: { value: healthyWidth } })).status).toBe(200)
    expect((await getJson(healthy, 'objectinfo')).boundingBox.maxX).toBe(healthyWidth)
  }

  it.each([
    [
      'a sphere with 200000 segments',
      withParameter('sphere(10, $fn = 200000);'),
      {},
      /engine stopped|memory limit|time limit/,
    ],
    [
      'endless module recursion',
      'module r(n) { r(n + 1); } r(0);',
      {},
      /engine stopped.*recursion|recursion detected/i,
    ],
    ['an endless loop', LOOP, { n: { value: 1e12 } }, /time limit of 3 s/],
  ])(
    '%s: PUT answers within 10 s, log.error says why, and the server keeps building',
    async (_case, source, body, error) => {
      const owner = await openSession(source, { extraSettings: { limits: { buildSeconds: 3 } } })
      const started = Date.now()
      const response = await put(owner, body)
      expect(Date.now() - started).toBeLessThan(10_000)
      expect(response.status).toBe(200)
      expect((await getJson(owner, 'log')).error).toMatch(error)
      await expectError(await get(owner, 'model'), 409, 'conflict')
      await expectServerStillBuilds()
    },
  )

  it('caps a configurator asking for more build time at BUILD_TIME_LIMIT_SECONDS', async () => {
    const { env } = await import('@/lib/env')
    const serverMaximum = env.BUILD_TIME_LIMIT_SECONDS
    // The real maximum (60 s) is too long to wait for: lower it for this case only.
    env.BUILD_TIME_LIMIT_SECONDS = 2
    try {
      // A source of its own, so no build of the 3 s case above comes from the cache.
      const owner = await openSession(`${LOOP}// capped\n`, { extraSettings: { limits: { buildSeconds: 100_000 } } })
      const started = Date.now()
      expect((await put(owner, { n: { value: 1e12 } })).status).toBe(200)
      expect(Date.now() - started).toBeLessThan(10_000)
      expect((await getJson(owner, 'log')).error).toMatch(/time limit of 2 s/)
    } finally {
      env.BUILD_TIME_LIMIT_SECONDS = serverMaximum
    }
  })

  // The engine runs on an in-memory file system: host files are not there to be read.
  const SQUARE_SVG =
    '<svg xmlns="http://www.w3.org/2000/svg" width="100mm" height="100mm" viewBox="0 0 100 100"><rect width="100" height="100"/></svg>'
  const hostFile = path.join(os.tmpdir(), `paraform-host-${randomUUID()}.svg`)
  beforeAll(() => fs.writeFileSync(hostFile, SQUARE_SVG))
  afterAll(() => fs.rmSync(hostFile, { force: true }))

  it('imports the same SVG when it is one of the configurator files', async () => {
    const owner = await openSession(
      withParameter('linear_extrude(1) import("square.svg");\ncube(2);'),
      {},
      { 'configurator/square.svg': SQUARE_SVG },
    )
    expect((await getJson(owner, 'objectinfo')).boundingBox).toMatchObject({ maxX: 100, maxY: 100 })
  })

  it.each([
    ['include </etc/passwd>', 'include </etc/passwd>\ncube(2);', /WARNING: Can't open include file '\/etc\/passwd'/],
    ['import("../../etc/hostname")', 'import("../../etc/hostname");\ncube(2);', /ERROR: .*import.*etc\/hostname/],
    [
      'import of a host file by absolute path',
      `linear_extrude(1) import("${hostFile}");\ncube(2);`,
      /ERROR: Can't open file '.*paraform-host-/,
    ],
    [
      'import of a host file by relative path',
      `linear_extrude(1) import("../../..${hostFile}");\ncube(2);`,
      /ERROR: Can't open file '\.\.\/.*paraform-host-/,
    ],
  ])('%s finds nothing on the host', async (_case, source, problem) => {
    const owner = await openSession(withParameter(source))
    expect((await put(owner, {})).status).toBe(200)
    const log = await getJson(owner, 'log')
    expect(log.error).toMatch(problem)
    expect(`${log.message}\n${log.error}`).not.toMatch(/root:/)
    if (log.error.startsWith('ERROR:')) {
      // A failed import is a failed build: nothing of it is sold.
      await expectError(await get(owner, 'objectinfo'), 409, 'conflict')
    } else {
      // Only the cube: nothing of the host file made it into the model.
      expect((await getJson(owner, 'objectinfo')).boundingBox).toEqual({
        minX: 0,
        maxX: 2,
        minY: 0,
        maxY: 2,
        minZ: 0,
        maxZ: 2,
      })
    }
  })
})
