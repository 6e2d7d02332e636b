import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ADMIN,
  callServer,
  signIn,
  type StartedServer,
  startServer,
  stopServer,
  tempDir,
} from '@/test/support/start-server'

// The server's log as an operator ships it: one JSON line per event, a request id per request,
// and none of the secrets the requests carried (docs/operations.md).

const METRICS_TOKEN = 'metrics token of the log test 0123'
let server: StartedServer

beforeAll(async () => {
  server = await startServer({
    DATA_DIR: tempDir(),
    SEED_DEMO: 'false',
    PREPARE_MODELS: 'false',
    METRICS_TOKEN,
    LOG_LEVEL: 'debug',
  })
})

afterAll(async () => {
  if (server) await stopServer(server)
})

interface LogLine {
  level: number
  time: string
  msg: string
  requestId?: string
  operation?: string
  status?: number
  path?: string
  durationMs?: number
}

/** Our lines (Next.js prints a few of its own before the server listens). */
function logLines(): LogLine[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
}

describe('the log', () => {
  it('is nothing but JSON lines once the server listens, also while models build and are measured for printing', async () => {
    const token = await signIn(server.url)
    const json = async (method: string, route: string, body?: unknown) => {
      const response = await callServer(server.url, token, method, route, body)
      expect(response.ok, `${method} ${route}: ${response.status}`).toBe(true)
      return response.json() as Promise<Record<string, unknown>>
    }
    const { UUID } = await json('POST', '/configurators', { name: 'Logged', mainFile: 'main.scad' })
    await callServer(
      server.url,
      token,
      'PUT',
      `/configurators/${String(UUID)}/files/configurator/main.scad`,
      'width = 10; // [1:50]\ncolor("red") cube([width, 4, 2]);\n',
    )
    const { id } = await json('POST', '/configsessions', { configuratorId: UUID })
    // The print report closes the parts and samples walls (three.js and three-mesh-bvh in the build worker threads).
    expect((await json('GET', `/configsessions/${String(id)}/objectinfo`)).print).toBeDefined()
    await new Promise((resolve) => setTimeout(resolve, 500))
    const output = server.output()
    const afterStart = output
      .slice(output.indexOf('\n', output.indexOf('listening on')) + 1)
      .split('\n')
      .filter((line) => line !== '')
    expect(afterStart.length).toBeGreaterThan(3)
    for (const line of afterStart) expect(() => JSON.parse(line) as unknown, line).not.toThrow()
  })

  it("names why a slice failed in its build line: the slicer's own words", async () => {
    const token = await signIn(server.url)
    const created = await callServer(server.url, token, 'POST', '/configurators', {
      name: 'Too long',
      mainFile: 'main.scad',
    })
    const { UUID } = (await created.json()) as { UUID: string }
    await callServer(
      server.url,
      token,
      'PUT',
      `/configurators/${UUID}/files/configurator/main.scad`,
      'cube([300, 20, 10]);\n',
    )
    const { id } = (await (
      await callServer(server.url, token, 'POST', '/configsessions', { configuratorId: UUID })
    ).json()) as {
      id: string
    }
    const slice = async () =>
      (
        (await (await callServer(server.url, token, 'GET', `/configsessions/${id}/objectinfo`)).json()) as {
          slice: { state: string }
        }
      ).slice.state
    await expect.poll(slice, { timeout: 60_000, interval: 500 }).toBe('failed')
    expect(logLines()).toContainEqual(
      expect.objectContaining({
        msg: 'build',
        kind: 'slice',
        outcome: 'failed',
        error: 'Objects could not fit on the bed',
      }),
    )
  })

  it('is one JSON line per request with its id, operation, status and duration, the id answered in X-Request-Id', async () => {
    const sane = await fetch(`${server.url}/api/health`, { headers: { 'x-request-id': 'shop-backend.4711' } })
    expect(sane.headers.get('x-request-id')).toBe('shop-backend.4711')
    const insane = await fetch(`${server.url}/api/capabilities`, {
      headers: { 'x-request-id': 'no spaces or "quotes" here' },
    })
    const generated = insane.headers.get('x-request-id')!
    expect(generated).toMatch(/^[0-9a-f-]{36}$/)
    const missing = await fetch(`${server.url}/api/configsessions/nope`)
    expect(missing.status).toBe(401)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const requests = logLines().filter((line) => line.msg === 'request')
    expect(requests.find((line) => line.requestId === 'shop-backend.4711')).toMatchObject({
      operation: 'getHealth',
      status: 200,
      path: '/api/health',
    })
    expect(requests.find((line) => line.requestId === generated)).toMatchObject({
      operation: 'getCapabilities',
      status: insane.status,
    })
    expect(requests.find((line) => line.requestId === missing.headers.get('x-request-id'))).toMatchObject({
      operation: 'getSession',
      status: 401,
    })
    for (const line of requests) {
      expect(Date.parse(line.time)).not.toBeNaN()
      expect(line.durationMs).toBeGreaterThanOrEqual(0)
    }
  })

  it('holds none of the secrets requests carried: passwords, tokens, keys in queries and headers, secret keys, webhook secrets', async () => {
    const secrets: Record<string, string> = { password: ADMIN.password, metricsToken: METRICS_TOKEN }
    const token = (secrets.accessToken = await signIn(server.url))
    const newUser = { email: 'designer@example.test', password: 'a designer password 42' }
    secrets.newPassword = newUser.password
    expect((await callServer(server.url, token, 'POST', '/users', { ...newUser, role: 'designer' })).status).toBe(201)
    const wrongLogin = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: 'wrong password 99' }),
    })
    expect(wrongLogin.status).toBe(401)
    secrets.wrongPassword = 'wrong password 99'

    const { UUID: configuratorId } = (await (
      await callServer(server.url, token, 'POST', '/configurators', { name: 'Secretive', mainFile: 'main.scad' })
    ).json()) as { UUID: string }
    expect(
      (
        await callServer(
          server.url,
          token,
          'PUT',
          `/configurators/${configuratorId}/files/configurator/main.scad`,
          'size = 10; // [1:20]\ncube(size);\n',
        )
      ).status,
    ).toBe(202)
    const { UUID: applicationId } = (await (
      await callServer(server.url, token, 'POST', `/configurators/${configuratorId}/applications`, {
        name: 'Shop',
        domain: 'shop.example.com',
      })
    ).json()) as { UUID: string }
    const application = (await (
      await callServer(server.url, token, 'GET', `/applications/${applicationId}`)
    ).json()) as { key: string; secretKey: string }
    secrets.applicationKey = application.key
    secrets.secretKey = application.secretKey
    const webhook = await callServer(server.url, token, 'PUT', `/applications/${applicationId}/webhook`, {
      url: 'https://shop.example.com/hooks',
    })
    secrets.webhookSecret = ((await webhook.json()) as { secret: string }).secret

    const serverToken = await fetch(`${server.url}/api/auth/application`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: application.key, secretKey: application.secretKey }),
    })
    secrets.serverToken = ((await serverToken.json()) as { accessToken: string }).accessToken
    const anonymous = await fetch(`${server.url}/api/auth/anonymous`, {
      method: 'POST',
      headers: { 'x-api-key': application.key, origin: 'https://shop.example.com' },
    })
    expect(anonymous.status).toBe(200)
    secrets.anonymousToken = ((await anonymous.json()) as { accessToken: string }).accessToken

    const { id: sessionId } = (await (
      await callServer(server.url, token, 'POST', '/configsessions', { configuratorId })
    ).json()) as { id: string }
    const session = (await (await callServer(server.url, token, 'GET', `/configsessions/${sessionId}`)).json()) as {
      modelKey: string
      renderingKey: string
    }
    secrets.modelKey = session.modelKey
    secrets.renderingKey = session.renderingKey
    expect((await fetch(`${server.url}/api/configsessions/${sessionId}/model?key=${session.modelKey}`)).status).toBe(
      200,
    )
    expect(
      (await fetch(`${server.url}/api/configSessions/${sessionId}/finalizedmodel?type=stl&key=${session.modelKey}`))
        .status,
    ).toBeLessThan(500)
    await fetch(`${server.url}/api/configsessions/${sessionId}/image?key=${session.renderingKey}`)
    // A wrong key in a query, and the application's key as a customer's browser sends it.
    await fetch(`${server.url}/api/configsessions/${sessionId}/model?key=${session.renderingKey}x`)
    await fetch(`${server.url}/api/configsessions/${sessionId}/parameters`, {
      headers: { authorization: `Bearer ${secrets.anonymousToken}`, 'x-api-key': application.key },
    })
    await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}wrong` } })
    await new Promise((resolve) => setTimeout(resolve, 300))

    const log = server.output()
    expect(logLines().filter((line) => line.msg === 'request').length).toBeGreaterThanOrEqual(15)
    // The builds the requests caused are logged too, with their times.
    expect(logLines().some((line) => line.msg === 'build')).toBe(true)
    for (const [kind, secret] of Object.entries(secrets)) {
      expect(secret.length, kind).toBeGreaterThanOrEqual(8)
      expect(log.includes(secret), `the log holds the ${kind}`).toBe(false)
    }
  })
})
