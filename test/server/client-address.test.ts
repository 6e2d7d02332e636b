import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, startServer, stopServer, tempDir, type StartedServer } from '@/test/support/start-server'

// The client address as route handlers see it, observed through the per-address sign-in limit:
// with one free failure, a second failure from the same address is 429, from another 401.
const LIMITS = { LOGIN_FAILURES_PER_ADDRESS: '1', LOGIN_FAILURES_PER_ACCOUNT: '1000', SEED_DEMO: 'false' }

function failSignIn(server: StartedServer, headers: Record<string, string>): Promise<number> {
  return fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email: ADMIN.email, password: 'wrong password' }),
  }).then((response) => response.status)
}

describe('client address without TRUST_PROXY', () => {
  let server: StartedServer
  beforeAll(async () => {
    server = await startServer({ ...LIMITS, DATA_DIR: tempDir() })
  })
  afterAll(() => stopServer(server))

  it('is the socket peer: a spoofed X-Forwarded-For or internal header changes nothing', async () => {
    expect(
      await failSignIn(server, { 'x-forwarded-for': '203.0.113.1', 'x-paraform-client-address': '203.0.113.2' }),
    ).toBe(401)
    expect(
      await failSignIn(server, { 'x-forwarded-for': '203.0.113.3', 'x-paraform-client-address': '203.0.113.4' }),
    ).toBe(429)
    expect(await failSignIn(server, {})).toBe(429)
  })
})

describe('client address with TRUST_PROXY=127.0.0.1', () => {
  let server: StartedServer
  beforeAll(async () => {
    server = await startServer({ ...LIMITS, DATA_DIR: tempDir(), TRUST_PROXY: '127.0.0.1' })
  })
  afterAll(() => stopServer(server))

  it("is the address the trusted proxy's X-Forwarded-For names; the internal header is still replaced", async () => {
    expect(await failSignIn(server, { 'x-forwarded-for': '203.0.113.1' })).toBe(401)
    expect(await failSignIn(server, { 'x-forwarded-for': '203.0.113.1' })).toBe(429)
    expect(await failSignIn(server, { 'x-forwarded-for': '203.0.113.5' })).toBe(401)
    expect(
      await failSignIn(server, { 'x-forwarded-for': '203.0.113.2', 'x-paraform-client-address': '203.0.113.1' }),
    ).toBe(401)
    // Only the last hop is believed: what the client itself put first is not.
    expect(await failSignIn(server, { 'x-forwarded-for': '203.0.113.9, 203.0.113.2' })).toBe(429)
  })
})

it('refuses a TRUST_PROXY that is not addresses or CIDRs, naming it', async () => {
  await expect(startServer({ TRUST_PROXY: '127.0.0.1, not-an-address', DATA_DIR: tempDir() })).rejects.toThrow(
    /TRUST_PROXY/,
  )
})
