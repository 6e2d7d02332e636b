import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, dropTestDatabase } from '@/test/support/postgres'
import { callServer, rawRequest } from '@/test/support/start-server'

// These tests start the real server (server.ts over the production build, `npm test` builds
// first) as a newcomer would, and talk to it over raw HTTP.

const ADMIN = { email: 'admin@example.test', password: 'admin password 1' }

interface Started {
  child: ChildProcess
  url: string
  output: () => string
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    env: { ...process.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, exited, output: () => output }
}

async function start(env: Record<string, string>): Promise<Started> {
  const port = await freePort()
  const { child, exited, output } = run({ ...env, PORT: String(port) })
  const listening = new Promise<void>((resolve) => {
    const check = () => (output().includes('listening on') ? resolve() : setTimeout(check, 100))
    check()
  })
  const outcome = await Promise.race([listening.then(() => 'up'), exited.then((code) => `exited with ${code}`)])
  if (outcome !== 'up') throw new Error(`server did not start (${outcome}): ${output()}`)
  return { child, url: `http://127.0.0.1:${port}`, output }
}

async function stop(server: Started): Promise<void> {
  const exited = new Promise((resolve) => server.child.on('exit', resolve))
  server.child.kill('SIGTERM')
  await exited
}

/** fetch refuses a GET with a body; node:http sends one as written. */
async function requestWithBody(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (response) => {
        let data = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (data += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: data }))
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { accessToken: string }).accessToken
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-server-'))
}

describe('start-up failures', () => {
  it('ends with one clear line and exit code 1 when DATA_DIR is not writable', async () => {
    const file = path.join(tempDir(), 'a-file')
    fs.writeFileSync(file, '')
    const { exited, output } = run({ DATA_DIR: path.join(file, 'data') })
    expect(await exited).toBe(1)
    expect(output().trim()).toMatch(/^paraform: DATA_DIR \S+ is not writable \(ENOTDIR\)$/)
  })

  it('ends with one clear line and exit code 1 when DATABASE_URL is unreachable, without its password', async () => {
    const port = await freePort()
    const { exited, output } = run({
      DATA_DIR: tempDir(),
      DATABASE_URL: `postgresql://paraform:s3cret@127.0.0.1:${port}/paraform`,
    })
    expect(await exited).toBe(1)
    expect(output().trim()).toMatch(
      new RegExp(`^paraform: cannot prepare PostgreSQL at 127\\.0\\.0\\.1:${port}/paraform: .*ECONNREFUSED.*$`),
    )
    expect(output()).not.toContain('s3cret')
  })

  it('ends with one clear line when a setting is invalid', async () => {
    const { exited, output } = run({ DATA_DIR: tempDir(), PORT: 'eighty' })
    expect(await exited).toBe(1)
    expect(output().trim()).toMatch(/^paraform: invalid environment: PORT: .*$/)
  })

  it.each([
    ['missing', () => path.join(tempDir(), 'openscad'), 'no such file'],
    ['not executable', () => writeFile('echo OpenSCAD version 2025.07.17', 0o644), 'not executable'],
    ['not OpenSCAD', () => writeFile('echo hello', 0o755), 'not OpenSCAD'],
  ])('ends with one line naming an OPENSCAD_BINARY that is %s', async (_, binary, why) => {
    const file = binary()
    const { exited, output } = run({ DATA_DIR: tempDir(), OPENSCAD_BINARY: file })
    expect(await exited).toBe(1)
    expect(output().trim()).toMatch(new RegExp(`^paraform: OPENSCAD_BINARY=${file}: ${why}`))
  })
})

/** A shell script as a stand-in binary. */
function writeFile(line: string, mode: number): string {
  const file = path.join(tempDir(), 'openscad')
  fs.writeFileSync(file, `#!/bin/sh\n${line}\n`, { mode })
  return file
}

describe('embedded database', () => {
  const dataDir = tempDir()
  let server: Started

  // Debian's OpenSCAD as a native engine beside the embedded one, as an operator would set it.
  const settings = {
    DATA_DIR: dataDir,
    MAX_UPLOAD_BYTES: '1000',
    SEED_DEMO: 'false',
    OPENSCAD_BINARY: '/usr/bin/openscad',
  }

  beforeAll(async () => {
    server = await start(settings)
  })
  afterAll(() => stop(server))

  it('builds a configurator on the native engine its cadVersion names, in the server as npm start runs it', async () => {
    const token = await signIn(server.url)
    const call = (method: string, route: string, body?: unknown) => callServer(server.url, token, method, route, body)
    const { cad } = (await (await call('GET', '/capabilities')).json()) as { cad: { versions: string[] }[] }
    const native = cad[0]!.versions.find((version) => version.endsWith('-native'))!
    const { UUID } = (await (
      await call('POST', '/configurators', { name: 'Native', mainFile: 'main.scad', cadVersion: native })
    ).json()) as { UUID: string }
    const upload = await fetch(`${server.url}/api/configurators/${UUID}/files/configurator/main.scad`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
      body: 'size = 3; // [1:9]\ncube(size);',
    })
    expect(upload.status).toBe(202)
    const { id } = (await (await call('POST', '/configsessions', { configuratorId: UUID })).json()) as { id: string }
    const model = await call('GET', `/configsessions/${id}/model`)
    expect(model.status).toBe(200)
    expect((await model.arrayBuffer()).byteLength).toBe(84 + 12 * 50)
  })

  it('serves the API and keeps everything across a restart on the same DATA_DIR', async () => {
    const token = await signIn(server.url)
    const created = await fetch(`${server.url}/api/configurators`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kept', mainFile: 'main.scad' }),
    })
    const { UUID } = (await created.json()) as { UUID: string }
    const upload = await fetch(`${server.url}/api/configurators/${UUID}/files/configurator/main.scad`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
      body: 'cube(3);',
    })
    expect(upload.status).toBe(202)
    expect(fs.existsSync(path.join(dataDir, 'db'))).toBe(true)

    await stop(server)
    server = await start(settings)
    expect(server.output()).not.toMatch(/applied migrations|created admin/)
    const file = await fetch(`${server.url}/api/configurators/${UUID}/files/configurator/main.scad`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(await file.text()).toBe('cube(3);')
  })

  it.each([
    ['..', 'configurator/../main.scad'],
    ['%2e%2e', 'configurator/%2e%2e/main.scad'],
    ['.', 'configurator/./main.scad'],
    ['a backslash', 'configurator\\main.scad'],
    ['an empty segment', 'configurator//main.scad'],
    ['an absolute path', '/etc/passwd'],
  ])('refuses a raw path with %s (400) and writes nothing', async (_case, filePath) => {
    const token = await signIn(server.url)
    const { UUID } = (await (
      await fetch(`${server.url}/api/configurators`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Hostile', mainFile: 'main.scad' }),
      })
    ).json()) as { UUID: string }
    const response = await rawRequest(server.url, `PUT /api/configurators/${UUID}/files/${filePath} HTTP/1.1`, [
      `Authorization: Bearer ${token}`,
      'Content-Length: 1',
      '',
      'x',
    ])
    expect(response.status).toBe(400)
    expect(JSON.parse(response.body)).toEqual({ error: { code: 'bad_request', message: expect.any(String) } })
    const files = await fetch(`${server.url}/api/configurators/${UUID}/files`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(await files.json()).toEqual([])
  })

  it('answers 413 to a declared Content-Length over MAX_UPLOAD_BYTES', async () => {
    const token = await signIn(server.url)
    const { UUID } = (await (
      await fetch(`${server.url}/api/configurators`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Big', mainFile: 'main.scad' }),
      })
    ).json()) as { UUID: string }
    const response = await fetch(`${server.url}/api/configurators/${UUID}/files/configurator/big.stl`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
      body: 'x'.repeat(1001),
    })
    expect(response.status).toBe(413)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large')
  })

  it('updates a scene with a GET carrying a JSON body, as the interface spells it, and reads it with a plain GET', async () => {
    const token = await signIn(server.url)
    const auth = { authorization: `Bearer ${token}` }
    const { UUID } = (await (
      await fetch(`${server.url}/api/configurators`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Scene', mainFile: 'main.scad', extraSettings: { renderers: ['headless'] } }),
      })
    ).json()) as { UUID: string }
    for (const [filePath, body] of [
      ['configurator/main.scad', 'cube(3);'],
      ['renderer/basic.vert', 'void main() {}'],
      ['renderer/basic.frag', 'void main() {}'],
    ]) {
      const upload = await fetch(`${server.url}/api/configurators/${UUID}/files/${filePath}`, {
        method: 'PUT',
        headers: auth,
        body,
      })
      expect(upload.status).toBe(202)
    }
    const created = await fetch(`${server.url}/api/configsessions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ configuratorId: UUID }),
    })
    const session = (await created.json()) as {
      id: string
      renderingKey: string
      renderSessions: { sessionId: string }[]
    }
    const [webgl, headless] = session.renderSessions.map(
      (renderer) => `/api/configSessions/${session.id}/renderers/${renderer.sessionId}/scene`,
    )
    const scene = {
      materials: {
        '0': {
          vertexShader: 'basic.vert',
          fragmentShader: 'basic.frag',
          uniforms: { tint: { type: 'color', value: '#ff0000' } },
        },
      },
      background: '#202020',
    }
    const readScene = async (scenePath: string) => {
      const response = await fetch(`${server.url}${scenePath}`, { headers: auth })
      expect(response.status).toBe(200)
      return response.json()
    }

    const update = await requestWithBody(
      `${server.url}${webgl}`,
      'GET',
      { ...auth, 'content-type': 'application/json' },
      JSON.stringify(scene),
    )
    expect(update.status).toBe(200)
    expect(JSON.parse(update.body)).toEqual(scene)
    expect(await readScene(webgl!)).toEqual(scene)
    expect(await readScene(headless!)).toEqual({ materials: {} })

    // Chunked, without Content-Length, is a body too; invalid settings are refused as on PUT.
    const chunked = JSON.stringify({ materials: {}, background: '#000000' })
    const chunkedUpdate = await rawRequest(server.url, `GET ${headless} HTTP/1.1`, [
      `Authorization: Bearer ${token}`,
      'Content-Type: application/json',
      'Transfer-Encoding: chunked',
      '',
      `${Buffer.byteLength(chunked).toString(16)}\r\n${chunked}\r\n0\r\n`,
    ])
    expect(chunkedUpdate.status).toBe(200)
    expect(await readScene(headless!)).toEqual({ materials: {}, background: '#000000' })
    const invalid = await requestWithBody(
      `${server.url}${headless}`,
      'GET',
      { ...auth, 'content-type': 'application/json' },
      JSON.stringify({ materials: { x: {} } }),
    )
    expect(invalid.status).toBe(422)
    expect(JSON.parse(invalid.body)).toEqual({
      error: {
        code: 'unprocessable_entity',
        message: expect.stringMatching(/^materials\.x: /),
        fields: [expect.objectContaining({ path: ['materials', 'x'] })],
      },
    })
    expect(await readScene(headless!)).toEqual({ materials: {}, background: '#000000' })

    // The viewer loads the shaders with the renderingKey alone; a raw dot segment never reaches them.
    const filesPath = `/api/configsessions/${session.id}/renderers/${session.renderSessions[0]!.sessionId}/files`
    const shader = await fetch(`${server.url}${filesPath}/basic.frag?key=${encodeURIComponent(session.renderingKey)}`)
    expect(shader.status).toBe(200)
    expect(shader.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/)
    const notModified = await fetch(
      `${server.url}${filesPath}/basic.frag?key=${encodeURIComponent(session.renderingKey)}`,
      { headers: { 'if-none-match': shader.headers.get('etag')! } },
    )
    expect(notModified.status).toBe(304)
    const hostile = await rawRequest(
      server.url,
      `GET ${filesPath}/../../../../configurators/${UUID}/files/configurator/main.scad?key=${encodeURIComponent(session.renderingKey)} HTTP/1.1`,
    )
    expect(hostile.status).toBe(400)
  })

  it('serves the OpenAPI document and the API reference page', async () => {
    const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      openapi: string
      paths: object
    }
    expect(document.openapi).toBe('3.1.0')
    const page = await fetch(`${server.url}/docs/api`)
    expect(page.status).toBe(200)
    const html = await page.text()
    for (const path of Object.keys(document.paths)) expect(html).toContain(path)
  })
})

describe('sessions on the embedded default', () => {
  const dataDir = tempDir()
  let server: Started

  beforeAll(async () => {
    server = await start({ DATA_DIR: dataDir })
  })
  afterAll(() => stop(server))

  it('starts with demo configurators, answers both path spellings and keeps sessions and builds across a restart', async () => {
    expect(server.output()).toMatch(/added \d+ demo configurators/)
    const token = await signIn(server.url)
    const auth = { authorization: `Bearer ${token}` }
    const demos = (await (await fetch(`${server.url}/api/configurators`, { headers: auth })).json()) as {
      UUID: string
      name: string
    }[]
    expect(demos.map((demo) => demo.name)).toEqual(expect.arrayContaining(['Box with lid', 'Name tag', 'Spur gear']))
    const box = demos.find((demo) => demo.name === 'Box with lid')!

    const created = await fetch(`${server.url}/api/configSessions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ configuratorUUID: box.UUID }),
    })
    expect(created.status).toBe(200)
    const session = (await created.json()) as { id: string; modelKey: string }
    const put = await fetch(`${server.url}/api/configSessions/${session.id}/parameters`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ width: { value: 120 } }),
    })
    expect(put.status).toBe(200)
    const modelUrl = () =>
      `${server.url}/api/configsessions/${session.id}/model?key=${encodeURIComponent(session.modelKey)}`
    const before = await fetch(modelUrl())
    expect(before.status).toBe(200)
    // Built for the PUT, by this process: joined while building, or from its memory.
    expect(['built', 'memory']).toContain(before.headers.get('x-build-cache'))
    const stl = Buffer.from(await before.arrayBuffer())

    await stop(server)
    server = await start({ DATA_DIR: dataDir })
    expect(server.output()).not.toMatch(/demo configurators/)
    const parameters = (await (
      await fetch(`${server.url}/api/configsessions/${session.id}/parameters`, { headers: auth })
    ).json()) as Record<string, { value: unknown }>
    expect(parameters.width?.value).toBe(120)
    const after = await fetch(modelUrl())
    expect(after.headers.get('x-build-cache')).toBe('stored')
    expect(Buffer.from(await after.arrayBuffer()).equals(stl)).toBe(true)
  })
})

describe('PostgreSQL', () => {
  let databaseUrl: string
  beforeAll(async () => {
    databaseUrl = await createTestDatabase()
  })
  afterAll(() => dropTestDatabase(databaseUrl))

  it('runs two instances started at once on one database and one DATA_DIR, migrating once', async () => {
    const shared = { DATA_DIR: tempDir(), DATABASE_URL: databaseUrl }
    const servers = await Promise.all([start(shared), start(shared)])
    try {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      const { rows } = await client.query('SELECT migration_name FROM "_prisma_migrations"')
      await client.end()
      const migrations = fs
        .readdirSync('prisma/migrations', { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
      expect(rows).toHaveLength(migrations.length)
      expect(servers.filter((server) => server.output().includes('applied migrations'))).toHaveLength(1)
      // A token from one instance works on the other: they share the signing key.
      const token = await signIn(servers[0].url)
      expect(
        (await fetch(`${servers[1].url}/api/configurators`, { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(200)
    } finally {
      await Promise.all(servers.map(stop))
    }
  })
})
