import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { api, uniqueEmail } from '@/test/support/api-client'
import { createConfigurator, expectError, PASSWORD, registerApplication, signUp } from '@/test/support/fixtures'

describe('login', () => {
  it('answers a bearer token that works until it is revoked', async () => {
    const user = await signUp()
    const login = await api('POST', '/auth/login', { body: { email: user.email, password: PASSWORD } })
    const grant = await login.json()
    expect(grant).toEqual({ accessToken: expect.any(String), tokenType: 'Bearer', expiresIn: expect.any(Number) })
    expect((await api('GET', '/configurators', { token: grant.accessToken })).status).toBe(200)

    expect((await api('POST', '/auth/logout', { token: grant.accessToken })).status).toBe(204)
    await expectError(await api('GET', '/configurators', { token: grant.accessToken }), 401, 'unauthorized')
    expect((await api('GET', '/configurators', { token: user.token })).status).toBe(200)
  })

  it('lets a user on a single-label domain sign in, as the default admin@localhost; a malformed address is 422', async () => {
    const { createUser } = await import('@/lib/users/users')
    const email = `admin-${randomUUID()}@localhost`
    await createUser({ email, password: PASSWORD, role: 'admin' })
    expect((await api('POST', '/auth/login', { body: { email, password: PASSWORD } })).status).toBe(200)
    expect((await api('POST', '/auth/session', { body: { email, password: PASSWORD } })).status).toBe(200)
    await expectError(
      await api('POST', '/auth/login', { body: { email: 'admin at localhost', password: PASSWORD } }),
      422,
      'unprocessable_entity',
      /^email: /,
    )
  })

  it.each([
    ['a wrong password', (email: string) => ({ email, password: 'wrong password' })],
    ['an unknown email', () => ({ email: uniqueEmail(), password: PASSWORD })],
  ])('refuses %s with 401 and the same message', async (_case, body) => {
    const user = await signUp()
    await expectError(
      await api('POST', '/auth/login', { body: body(user.email) }),
      401,
      'unauthorized',
      /^Email or password is wrong$/,
    )
  })
})

describe('users', () => {
  it('lets an admin create a user who can then sign in', async () => {
    const admin = await signUp('admin')
    const email = uniqueEmail()
    const created = await api('POST', '/users', { token: admin.token, body: { email, password: 'a new password' } })
    expect(created.status).toBe(201)
    expect(await created.json()).toEqual({ UUID: expect.any(String), email, role: 'designer' })
    expect((await api('POST', '/auth/login', { body: { email, password: 'a new password' } })).status).toBe(200)
    await expectError(
      await api('POST', '/users', { token: admin.token, body: { email, password: 'another one' } }),
      409,
      'conflict',
    )
  })

  it('refuses a designer (403) and a short password (422)', async () => {
    const designer = await signUp()
    const admin = await signUp('admin')
    const body = { email: uniqueEmail(), password: 'a new password' }
    await expectError(await api('POST', '/users', { token: designer.token, body }), 403, 'forbidden')
    await expectError(
      await api('POST', '/users', { token: admin.token, body: { ...body, password: 'short' } }),
      422,
      'unprocessable_entity',
      /password/,
    )
  })
})

describe('application tokens', () => {
  async function application(fields: Record<string, unknown> = {}) {
    const owner = await signUp()
    const configuratorId = await createConfigurator(owner.token)
    return { owner, ...(await registerApplication(owner.token, configuratorId, fields)) }
  }

  it('gives an anonymous token for X-API-KEY from the application domain or localhost', async () => {
    const { key } = await application()
    for (const origin of [undefined, 'https://shop.example.com', 'http://localhost:5173']) {
      const response = await api('POST', '/auth/anonymous', {
        headers: { 'x-api-key': key, ...(origin && { origin }) },
      })
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600 })
    }
  })

  it('refuses an unknown key (401), a missing key (401) and a foreign origin (403)', async () => {
    const { key } = await application()
    await expectError(
      await api('POST', '/auth/anonymous', { headers: { 'x-api-key': 'pk_unknown' } }),
      401,
      'unauthorized',
    )
    await expectError(await api('POST', '/auth/anonymous'), 401, 'unauthorized', /X-API-KEY/)
    const foreign = await api('POST', '/auth/anonymous', {
      headers: { 'x-api-key': key, origin: 'https://evil.example.com' },
    })
    await expectError(foreign, 403, 'forbidden', /evil\.example\.com/)
  })

  it('gives a server token only for the right secret key, and none once the application is deleted', async () => {
    const { owner, UUID, key, secretKey } = await application()
    const good = await api('POST', '/auth/application', { body: { key, secretKey } })
    expect(good.status).toBe(200)
    const { accessToken } = await good.json()
    await expectError(
      await api('POST', '/auth/application', { body: { key, secretKey: `${secretKey}x` } }),
      401,
      'unauthorized',
    )
    // An application token is not a user token.
    await expectError(await api('GET', '/configurators', { token: accessToken }), 403, 'forbidden')

    expect((await api('DELETE', `/applications/${UUID}`, { token: owner.token })).status).toBe(204)
    await expectError(await api('GET', '/configurators', { token: accessToken }), 401, 'unauthorized')
    await expectError(await api('POST', '/auth/application', { body: { key, secretKey } }), 401, 'unauthorized')
  })
})
