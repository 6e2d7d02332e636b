import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ADMIN,
  rawRequest,
  signIn,
  startServer,
  stopServer,
  tempDir,
  type StartedServer,
} from '@/test/support/start-server'

// Hostile request lines and headers every page and the API must answer cleanly, over a real socket.

let server: StartedServer

beforeAll(async () => {
  server = await startServer({ DATA_DIR: tempDir(), SEED_DEMO: 'false' })
})
afterAll(() => stopServer(server))

describe('malformed percent-encoding', () => {
  it.each([
    '/api/configsessions/%FF',
    '/api/configsessions/%C0%AE%C0%AE/parameters',
    '/api/configurators/%ED%A0%80',
    '/api/services/echo/%',
    '/embed/%FF',
    '/embed/%C0%AE',
    '/studio/%FF',
    '/configure/%E0%80%AF',
    '/signin%FF',
    '/%C0%AE%C0%AE/',
  ])('GET %s answers 400 with the JSON error', async (path) => {
    const response = await rawRequest(server.url, `GET ${path} HTTP/1.1`)
    expect(response.status).toBe(400)
    expect(response.head).toMatch(/^content-type: application\/json/im)
    expect(JSON.parse(response.body)).toEqual({
      error: { code: 'bad_request', message: 'Invalid path: malformed percent-encoding' },
    })
  })

  it('still serves well-encoded paths, and malformed queries decoded leniently', async () => {
    expect((await rawRequest(server.url, 'GET /signin?next=%2Fstudio%2F%C3%BC HTTP/1.1')).status).toBe(200)
    expect((await rawRequest(server.url, 'GET /signin?next=%FF%C0%AE HTTP/1.1')).status).toBe(200)
    expect((await rawRequest(server.url, 'GET /api/openapi.json?x=%FF HTTP/1.1')).status).toBe(200)
  })
})

describe('sign-in redirect of a signed-in browser', () => {
  let cookie: string

  beforeAll(async () => {
    const response = await fetch(`${server.url}/api/auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    })
    expect(response.status).toBe(200)
    cookie = response.headers
      .getSetCookie()
      .map((value) => value.split(';')[0])
      .join('; ')
  })

  it.each([
    ['/%09/evil.example/', '/studio'],
    ['/%0a/evil.example/', '/studio'],
    ['/%0d%0a/evil.example/', '/studio'],
    ['/%5c/evil.example/', '/studio'],
    ['//evil.example/', '/studio'],
    ['/studio/configurators', '/studio/configurators'],
  ])('next=%s goes to %s', async (next, location) => {
    const response = await fetch(`${server.url}/signin?next=${next}`, { headers: { cookie }, redirect: 'manual' })
    expect(response.status).toBe(307)
    expect(new URL(response.headers.get('location')!, server.url).href).toBe(`${server.url}${location}`)
  })
})

describe('framing', () => {
  it.each([
    '/',
    '/signin',
    '/studio',
    '/studio/configurators',
    '/configure/00000000-0000-4000-8000-000000000000',
    '/docs/api',
    '/no-such-page',
  ])('%s may be framed by this site only', async (path) => {
    const response = await fetch(`${server.url}${path}`, { redirect: 'manual' })
    expect(response.status).toBeLessThan(500)
    expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'self'")
  })

  it("keeps the embed page's own policy: its application's domain, or nobody", async () => {
    const token = await signIn(server.url)
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const created = await fetch(`${server.url}/api/configurators`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Framed', mainFile: 'main.scad' }),
    })
    const { UUID } = (await created.json()) as { UUID: string }
    const registered = await fetch(`${server.url}/api/configurators/${UUID}/applications`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Shop', domain: 'shop.example.com' }),
    })
    const application = (await (
      await fetch(`${server.url}/api/applications/${((await registered.json()) as { UUID: string }).UUID}`, {
        headers: auth,
      })
    ).json()) as { key: string }

    const embed = await fetch(`${server.url}/embed/${encodeURIComponent(application.key)}`)
    expect(embed.headers.get('content-security-policy')).toBe(
      'frame-ancestors http://shop.example.com:* https://shop.example.com:*',
    )
    const unknown = await fetch(`${server.url}/embed/no-such-key`)
    expect(unknown.headers.get('content-security-policy')).toBe("frame-ancestors 'none'")
  })

  it('leaves API answers as they were', async () => {
    const response = await fetch(`${server.url}/api/openapi.json`)
    expect(response.headers.get('content-security-policy')).toBeNull()
  })
})
