import { describe, expect, it } from 'vitest'
import { api } from '@/test/support/api-client'
import { expectError, PASSWORD, signUp } from '@/test/support/fixtures'

// The browser UI's cookie session, through the real handlers.

async function signIn(): Promise<{ email: string; cookie: string; setCookie: string }> {
  const { email } = await signUp()
  const response = await api('POST', '/auth/session', { body: { email, password: PASSWORD } })
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ user: { id: expect.any(String), email, role: 'designer' } })
  const setCookie = response.headers.get('set-cookie') ?? ''
  const cookie = /^(paraform_session=[^;]+);/.exec(setCookie)?.[1]
  if (!cookie) throw new Error(`no session cookie in ${setCookie}`)
  return { email, cookie, setCookie }
}

const sameSite = { 'sec-fetch-site': 'same-origin' }

describe('cookie session', () => {
  it('sets an httpOnly, SameSite cookie that then stands for the bearer token', async () => {
    const { email, cookie, setCookie } = await signIn()
    expect(setCookie).toMatch(/; HttpOnly/)
    expect(setCookie).toMatch(/; SameSite=Lax/)
    expect(setCookie).toMatch(/; Path=\//)
    expect(setCookie).not.toMatch(/Secure/) // plain http here; https adds it
    const me = await api('GET', '/auth/session', { headers: { cookie } })
    expect(me.status).toBe(200)
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(email)
    expect((await api('GET', '/configurators', { headers: { cookie } })).status).toBe(200)
    const created = await api('POST', '/configurators', {
      headers: { cookie, ...sameSite },
      body: { name: 'Cookie', mainFile: 'main.scad' },
    })
    expect(created.status).toBe(201)
  })

  it('marks the cookie Secure behind https', async () => {
    const { email } = await signUp()
    const response = await api('POST', '/auth/session', {
      headers: { 'x-forwarded-proto': 'https' },
      body: { email, password: PASSWORD },
    })
    expect(response.headers.get('set-cookie')).toMatch(/; Secure$/)
  })

  it.each([
    ['another site', { 'sec-fetch-site': 'cross-site' }],
    ['a sibling subdomain', { 'sec-fetch-site': 'same-site' }],
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['neither Sec-Fetch-Site nor Origin', {}],
  ])('refuses a change by cookie from %s (CSRF), 403', async (_case, headers) => {
    const { cookie } = await signIn()
    const response = await api('POST', '/configurators', {
      headers: { cookie, ...headers },
      body: { name: 'Forged', mainFile: 'main.scad' },
    })
    await expectError(response, 403, 'forbidden', /only from pages of this site/)
    const list = (await (await api('GET', '/configurators', { headers: { cookie } })).json()) as { name: string }[]
    expect(list.map((configurator) => configurator.name)).not.toContain('Forged')
  })

  it('accepts an Origin of this host when Sec-Fetch-Site is absent', async () => {
    const { cookie } = await signIn()
    const response = await api('POST', '/configurators', {
      headers: { cookie, origin: 'http://localhost:3000', host: 'localhost:3000' },
      body: { name: 'Old browser', mainFile: 'main.scad' },
    })
    expect(response.status).toBe(201)
  })

  it('signs out: revokes the token, clears the cookie, and the old cookie no longer works', async () => {
    const { cookie } = await signIn()
    const signOut = await api('DELETE', '/auth/session', { headers: { cookie, ...sameSite } })
    expect(signOut.status).toBe(204)
    expect(signOut.headers.get('set-cookie')).toMatch(/^paraform_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/)
    await expectError(await api('GET', '/auth/session', { headers: { cookie } }), 401, 'unauthorized', /Sign in/)
    await expectError(await api('GET', '/configurators', { headers: { cookie } }), 401, 'unauthorized')
  })

  it('lets a browser with a stale cookie sign in again', async () => {
    const { email, cookie } = await signIn()
    await api('DELETE', '/auth/session', { headers: { cookie, ...sameSite } })
    const again = await api('POST', '/auth/session', {
      headers: { cookie, ...sameSite },
      body: { email, password: PASSWORD },
    })
    expect(again.status).toBe(200)
  })

  it('refuses wrong credentials without setting a cookie', async () => {
    const { email } = await signUp()
    const response = await api('POST', '/auth/session', { body: { email, password: 'wrong password' } })
    await expectError(response, 401, 'unauthorized', /^Email or password is wrong$/)
    expect(response.headers.get('set-cookie')).toBeNull()
  })

  it('prefers the Authorization header over the cookie', async () => {
    const { cookie } = await signIn()
    const other = await signUp()
    const me = await api('GET', '/auth/session', { token: other.token, headers: { cookie } })
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(other.email)
  })
})
