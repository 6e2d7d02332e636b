import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate'
import { describe, expect, it } from 'vitest'
import * as sessions from '@/lib/sessions/operations'
import { api, readBody } from '@/test/support/api-client'
import { expectError, openSession, registerApplication } from '@/test/support/fixtures'

const SVG_RECTANGLE = `<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm" viewBox="0 0 20 10"><rect x="0" y="0" width="20" height="10"/></svg>`

const PLATE = `
width = 40; // [10:1:100]
rounded = false;
logo = ""; // [file]
echo("plate", width);
color("tan") cube([width, 30, 2]);
if (logo != "") color("black") translate([5, 5, 2]) linear_extrude(1) import(logo);
`

const CENTRAL_SIGNATURE = [0x50, 0x4b, 0x01, 0x02]
const LOCAL_SIGNATURE = [0x50, 0x4b, 0x03, 0x04]

function offsetsOf(data: Uint8Array, signature: number[]): number[] {
  const offsets: number[] = []
  for (let at = 0; at + signature.length <= data.length; at++) {
    if (signature.every((byte, index) => data[at + index] === byte)) offsets.push(at)
  }
  return offsets
}

/** Rewrites the uncompressed size every header declares: a bomb that lies about its size. */
function withDeclaredSize(zip: Uint8Array, size: number): Uint8Array {
  const patched = zip.slice()
  const view = new DataView(patched.buffer)
  for (const at of offsetsOf(patched, LOCAL_SIGNATURE)) view.setUint32(at + 22, size, true)
  for (const at of offsetsOf(patched, CENTRAL_SIGNATURE)) view.setUint32(at + 24, size, true)
  return patched
}

async function savedPlate() {
  const opened = await openSession(PLATE)
  const { session, token } = opened
  const upload = await api('POST', `/configsessions/${session.id}/files?name=logo.svg`, { token, body: SVG_RECTANGLE })
  const logo = await readBody(upload, sessions.addSessionFile)
  const put = await api('PUT', `/configsessions/${session.id}/parameters`, {
    token,
    body: { width: { value: 55 }, rounded: { value: true }, logo: { value: logo.name } },
  })
  expect(put.status).toBe(200)
  const save = await api('GET', `/configsessions/${session.id}/save`, { token })
  expect(save.status).toBe(200)
  expect(save.headers.get('content-type')).toBe('application/zip')
  const zip = new Uint8Array(await save.arrayBuffer())
  return { ...opened, logo, zip, entries: unzipSync(zip) }
}

async function countSessions(configuratorId: string): Promise<number> {
  const { db } = await import('@/lib/db')
  return db.configSession.count({ where: { configuratorId } })
}

const restore = (configuratorId: string, token: string, zip: Uint8Array, contentType = 'application/zip') =>
  api('POST', `/configsessions?configuratorId=${configuratorId}`, {
    token,
    body: zip,
    headers: { 'content-type': contentType },
  })

async function modelBytes(sessionId: string, token: string): Promise<Buffer> {
  const response = await api('GET', `/configsessions/${sessionId}/model`, { token })
  expect(response.status).toBe(200)
  return Buffer.from(await response.arrayBuffer())
}

describe('save', () => {
  it('is a zip of the configurator files, parameters, scenes, models, log and session files', async () => {
    const { session, token, logo, entries } = await savedPlate()
    const names = Object.keys(entries)
    expect(names).toEqual(
      expect.arrayContaining([
        'configurator/main.scad',
        'parameters.json',
        'model.stl',
        'model.3mf',
        'model.glb',
        'log.txt',
        `files/${logo.name}/logo.svg`,
        ...session.renderSessions.map((renderer) => `scene/${renderer.sessionId}.json`),
      ]),
    )
    expect(names.filter((name) => name.startsWith('scene/'))).toHaveLength(session.renderSessions.length)

    expect(Buffer.from(entries['configurator/main.scad']!).toString()).toBe(PLATE)
    expect(Buffer.from(entries[`files/${logo.name}/logo.svg`]!).toString()).toBe(SVG_RECTANGLE)
    const parameters = JSON.parse(Buffer.from(entries['parameters.json']!).toString())
    expect(parameters).toMatchObject({
      width: { type: 'float', value: 55 },
      rounded: { value: true },
      logo: { type: 'file', value: logo.name },
    })
    for (const renderer of session.renderSessions) {
      const scene = JSON.parse(Buffer.from(entries[`scene/${renderer.sessionId}.json`]!).toString())
      expect(scene).toMatchObject({ rendererType: renderer.rendererType })
    }
    expect(Buffer.from(entries['log.txt']!).toString()).toContain('ECHO: "plate", 55')

    expect(Buffer.compare(Buffer.from(entries['model.stl']!), await modelBytes(session.id, token))).toBe(0)
    expect(Buffer.from(entries['model.3mf']!.subarray(0, 2)).toString()).toBe('PK')
    expect(Buffer.from(entries['model.glb']!.subarray(0, 4)).toString()).toBe('glTF')
  })

  it('restores a saved zip into a new session with the same values, files and an identical model', async () => {
    const { configuratorId, session, token, zip } = await savedPlate()
    const before = await countSessions(configuratorId)

    const response = await restore(configuratorId, token, zip)
    const restored = await readBody(response, sessions.createSession)
    expect(restored.id).not.toBe(session.id)
    expect(restored.modelKey).toEqual(expect.any(String))
    expect(restored.renderSessions).toHaveLength(session.renderSessions.length)
    expect(await countSessions(configuratorId)).toBe(before + 1)

    const files = await readBody(
      await api('GET', `/configsessions/${restored.id}/files`, { token }),
      sessions.listSessionFiles,
    )
    expect(files).toEqual([{ name: expect.any(String), ext: 'svg', contentType: 'image/svg+xml' }])
    const original = await (await api('GET', `/configsessions/${session.id}/parameters`, { token })).json()
    const copy = await (await api('GET', `/configsessions/${restored.id}/parameters`, { token })).json()
    expect(copy.width.value).toBe(55)
    expect(copy.rounded.value).toBe(true)
    // The file parameter points at the restored session's own copy of the file.
    expect(copy.logo.value).toBe(files[0]!.name)
    expect({ ...copy, logo: undefined }).toEqual({ ...original, logo: undefined })

    expect(Buffer.compare(await modelBytes(restored.id, token), await modelBytes(session.id, token))).toBe(0)
  })

  it('accepts configuratorUUID in the query and application/x-zip-compressed', async () => {
    const { configuratorId, token, zip } = await savedPlate()
    const response = await api('POST', `/configsessions?configuratorUUID=${configuratorId}`, {
      token,
      body: zip,
      headers: { 'content-type': 'application/x-zip-compressed' },
    })
    const { id } = await readBody(response, sessions.createSession)
    expect((await (await api('GET', `/configsessions/${id}/parameters`, { token })).json()).width.value).toBe(55)
  })

  it('answers 422 without a configurator id and 404 for an unknown configurator, creating nothing', async () => {
    const { configuratorId, token, zip } = await savedPlate()
    const before = await countSessions(configuratorId)
    await expectError(
      await api('POST', '/configsessions', { token, body: zip, headers: { 'content-type': 'application/zip' } }),
      422,
      'unprocessable_entity',
      /configuratorId/,
    )
    await expectError(await restore('00000000-0000-4000-8000-000000000000', token, zip), 404, 'not_found')
    expect(await countSessions(configuratorId)).toBe(before)
  })
  const hostileModel = strToU8('width = 40; // [10:1:100]\nlogo = ""; // [file]\ncube([99, 99, 99]);')

  it("ignores the zip's configurator/main.scad: the configurator's own model is built", async () => {
    const { configuratorId, token } = await openSession(PLATE)
    const zip = zipSync({
      'parameters.json': strToU8(JSON.stringify({ width: { type: 'float', value: 60 } })),
      'configurator/main.scad': hostileModel,
    })
    const response = await restore(configuratorId, token, zip)
    const { id } = await readBody(response, sessions.createSession)
    const info = await (await api('GET', `/configsessions/${id}/objectinfo`, { token })).json()
    expect(info.boundingBox).toEqual({ minX: 0, maxX: 60, minY: 0, maxY: 30, minZ: 0, maxZ: 2 })
  })

  it('refuses (409) a session file named like a configurator file, creating nothing', async () => {
    const { configuratorId, token } = await openSession(PLATE)
    const before = await countSessions(configuratorId)
    const zip = zipSync({
      'parameters.json': strToU8(JSON.stringify({ width: { type: 'float', value: 60 } })),
      'files/abc/main.scad': hostileModel,
    })
    await expectError(await restore(configuratorId, token, zip), 409, 'conflict', /main\.scad/)
    expect(await countSessions(configuratorId)).toBe(before)
  })
})

describe("a customer's save", () => {
  /** A session of the plate opened by an end customer (anonymous token), with a renderer file, and the shop's tokens. */
  async function customerSession(extraSettings: Record<string, unknown> = {}) {
    const shop = await openSession(PLATE, { extraSettings }, { 'renderer/paint.frag': 'void main() {}' })
    const { key, secretKey } = await registerApplication(shop.token, shop.configuratorId)
    const tokenOf = async (path: string, body?: unknown) =>
      ((await (await api('POST', path, { headers: { 'x-api-key': key }, body })).json()) as { accessToken: string })
        .accessToken
    const customer = await tokenOf('/auth/anonymous')
    const server = await tokenOf('/auth/application', { key, secretKey })
    const opened = await api('POST', '/configsessions', {
      token: customer,
      headers: { 'x-api-key': key },
      body: { configuratorId: shop.configuratorId },
    })
    const { id } = await readBody(opened, sessions.createSession)
    const put = await api('PUT', `/configsessions/${id}/parameters`, {
      token: customer,
      headers: { 'x-api-key': key },
      body: { width: { value: 61 } },
    })
    expect(put.status).toBe(200)
    const save = async (token: string, headers: Record<string, string> = { 'x-api-key': key }) => {
      const response = await api('GET', `/configsessions/${id}/save`, { token, headers })
      expect(response.status).toBe(200)
      return new Uint8Array(await response.arrayBuffer())
    }
    return { shop, key, customer, server, save }
  }

  it("leaves the designer's files out for the customer; the owner and the shop's server get them", async () => {
    const { shop, key, customer, server, save } = await customerSession()
    const customerZip = await save(customer)
    const names = Object.keys(unzipSync(customerZip))
    expect(names).toEqual(expect.arrayContaining(['parameters.json', 'model.stl', 'log.txt']))
    expect(names.filter((name) => name.startsWith('configurator/') || name.startsWith('renderer/'))).toEqual([])
    for (const complete of [await save(server), await save(shop.token, {})]) {
      expect(Object.keys(unzipSync(complete))).toEqual(
        expect.arrayContaining(['configurator/main.scad', 'renderer/paint.frag']),
      )
    }

    // The customer's zip still restores: the configurator's own model is built anyway.
    const restored = await api('POST', `/configsessions?configuratorId=${shop.configuratorId}`, {
      token: customer,
      headers: { 'x-api-key': key, 'content-type': 'application/zip' },
      body: customerZip,
    })
    const { id } = await readBody(restored, sessions.createSession)
    const parameters = await api('GET', `/configsessions/${id}/parameters`, {
      token: customer,
      headers: { 'x-api-key': key },
    })
    expect(((await parameters.json()) as { width: { value: number } }).width.value).toBe(61)
  })

  it('holds them when the configurator shares them with customers', async () => {
    const { customer, save } = await customerSession({ shareSourceWithCustomers: true })
    const entries = unzipSync(await save(customer))
    expect(Buffer.from(entries['configurator/main.scad']!).toString()).toBe(PLATE)
    expect(Object.keys(entries)).toContain('renderer/paint.frag')
  })
})

describe('restoring a hostile or invalid zip', () => {
  const parametersJson = strToU8(JSON.stringify({ width: { type: 'float', value: 60 } }))

  const hostileZips: [string, () => Uint8Array, RegExp][] = [
    [
      'an entry climbing out with ../',
      () => zipSync({ 'parameters.json': parametersJson, '../evil.txt': strToU8('evil') }),
      /evil\.txt/,
    ],
    [
      'an absolute entry name',
      () => zipSync({ 'parameters.json': parametersJson, '/etc/passwd': strToU8('root:x:0:0') }),
      /absolute/,
    ],
    [
      'a backslash path',
      () => zipSync({ 'parameters.json': parametersJson, 'files\\..\\..\\evil.txt': strToU8('evil') }),
      /backslash/,
    ],
    [
      'a session file climbing out',
      () => zipSync({ 'parameters.json': parametersJson, 'files/abc/../../evil.txt': strToU8('evil') }),
      /not allowed/,
    ],
    [
      'a symbolic link entry',
      () =>
        zipSync({
          'parameters.json': parametersJson,
          'files/abc/link.svg': [strToU8('/etc/passwd'), { os: 3, attrs: 0o120777 << 16 }],
        }),
      /symbolic link/,
    ],
    [
      'a 50 MB bomb of zeros',
      () =>
        zipSync(
          { 'parameters.json': parametersJson, 'files/abc/bomb.bin': new Uint8Array(50 * 1024 * 1024) },
          { level: 9 },
        ),
      /ratio|more than/,
    ],
    [
      'a bomb that declares a small size',
      () => withDeclaredSize(zipSync({ 'files/abc/bomb.bin': new Uint8Array(50 * 1024 * 1024) }, { level: 9 }), 1000),
      /bomb\.bin/,
    ],
  ]

  it.each(hostileZips)('refuses %s with 4xx and creates no session', async (_case, build, message) => {
    const { configuratorId, token } = await openSession(PLATE)
    const before = await countSessions(configuratorId)
    const response = await restore(configuratorId, token, build())
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
    await expectError(response, response.status, response.status === 413 ? 'payload_too_large' : 'bad_request', message)
    expect(await countSessions(configuratorId)).toBe(before)
  })

  it('refuses bytes that are not a zip with 400', async () => {
    const { configuratorId, token } = await openSession(PLATE)
    const before = await countSessions(configuratorId)
    await expectError(
      await restore(configuratorId, token, strToU8('definitely not a zip archive')),
      400,
      'bad_request',
      /zip/,
    )
    expect(await countSessions(configuratorId)).toBe(before)
  })

  const invalidParameters: [string, Zippable, RegExp][] = [
    [
      'a value out of range',
      { 'parameters.json': strToU8(JSON.stringify({ width: { type: 'float', value: 500 } })) },
      /width: must be at most 100/,
    ],
    [
      'a value of the wrong kind',
      { 'parameters.json': strToU8(JSON.stringify({ rounded: { type: 'bool', value: 'yes' } })) },
      /rounded: /,
    ],
    ['an unknown key', { 'parameters.json': strToU8(JSON.stringify({ depth: { value: 1 } })) }, /depth: /],
    [
      'a file id the zip does not hold',
      { 'parameters.json': strToU8(JSON.stringify({ logo: { type: 'file', value: 'missing' } })) },
      /logo: /,
    ],
    ['parameters.json that is not JSON', { 'parameters.json': strToU8('{nope') }, /parameters\.json/],
    ['no parameters.json', { 'log.txt': strToU8('') }, /parameters\.json/],
  ]

  it.each(invalidParameters)(
    'refuses %s with 422 and keeps neither session nor files',
    async (_case, entries, message) => {
      const { configuratorId, token } = await openSession(PLATE)
      const { db } = await import('@/lib/db')
      const before = await countSessions(configuratorId)
      const filesBefore = await db.sessionFile.count({ where: { session: { configuratorId } } })
      const zip = zipSync({ ...entries, 'files/abc/logo.svg': strToU8(SVG_RECTANGLE) })
      await expectError(await restore(configuratorId, token, zip), 422, 'unprocessable_entity', message)
      expect(await countSessions(configuratorId)).toBe(before)
      expect(await db.sessionFile.count({ where: { session: { configuratorId } } })).toBe(filesBefore)
    },
  )
})
