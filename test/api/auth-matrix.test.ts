import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { OPERATIONS } from '@/lib/endpoints/openapi'
import { installLibrary } from '@/lib/libraries/libraries'
import type { Operation } from '@/lib/api/operation'
import { api, uniqueEmail } from '@/test/support/api-client'
import { createConfigurator, expectError, registerApplication, signUp } from '@/test/support/fixtures'

// Session endpoints take application credentials too; test/api/session-auth.test.ts covers them.
const protectedOperations = OPERATIONS.filter((operation) => operation.auth === 'user' || operation.auth === 'admin')

/** The library the library operations install and remove; presets are saved under this name too. */
const MATRIX_LIBRARY = 'matrix-lib'

// A valid request for each protected operation, so that only the credentials decide the answer.
const BODIES: Record<string, () => unknown> = {
  createUser: () => ({ email: uniqueEmail(), password: 'long enough password' }),
  createConfigurator: () => ({ name: 'Box', mainFile: 'main.scad' }),
  updateConfigurator: () => ({ name: 'Renamed' }),
  uploadConfiguratorFile: () => 'cube(1);',
  uploadConfiguratorArchive: () => zipSync({ 'main.scad': strToU8('cube(1);') }),
  savePreset: () => ({}),
  installLibrary: () => zipSync({ [`${MATRIX_LIBRARY}-main`]: { 'x.scad': strToU8('x = 1;\n') } }),
  registerApplication: () => ({ name: 'Shop', domain: 'shop.example.com' }),
  setWebhook: () => ({ url: 'https://shop.example.com/hook' }),
  publishRelease: () => ({ override: true }),
}

async function ownedResources(operation: Operation) {
  const owner = await signUp(operation.auth === 'admin' ? 'admin' : 'designer')
  const configuratorId = await createConfigurator(owner.token)
  await api('PUT', `/configurators/${configuratorId}/files/configurator/main.scad`, {
    token: owner.token,
    body: 'cube(1);',
  })
  const application = await registerApplication(owner.token, configuratorId)
  await installLibrary(MATRIX_LIBRARY, new Map([['x.scad', strToU8('x = 1;\n')]]))
  // Publishing needs a prepared draft; the other release operations release 1 (a draft is published once).
  if (operation.path.includes('/releases'))
    await publishRelease(owner.token, configuratorId, operation.id !== 'publishRelease')
  return {
    owner,
    configuratorId,
    application,
    snapshotId: operation.path.includes('{snapshotId}') ? await takeSnapshot(owner.token, configuratorId) : '',
  }
}

async function takeSnapshot(token: string, configuratorId: string): Promise<string> {
  const session = await (await api('POST', '/configsessions', { token, body: { configuratorId } })).json()
  return (await (await api('POST', `/configsessions/${session.id}/snapshots`, { token })).json()).id
}

/** The configurator's draft prepared, as publishing requires, and published as release 1 when `publish` says so. */
async function publishRelease(token: string, configuratorId: string, publish: boolean): Promise<void> {
  const { prepareConfigurator } = await import('@/lib/sessions/preparation')
  await prepareConfigurator(configuratorId)
  if (publish)
    expect(
      (await api('POST', `/configurators/${configuratorId}/releases`, { token, body: { override: true } })).status,
    ).toBe(201)
}

function concretePath(
  operation: Operation,
  ids: { configuratorId: string; applicationId: string; snapshotId: string },
): string {
  return operation.path
    .replace('{snapshotId}', ids.snapshotId)
    .replace('{configuratorId}', ids.configuratorId)
    .replace('{applicationId}', ids.applicationId)
    .replace('{path}', 'configurator/main.scad')
    .replace('{name}', MATRIX_LIBRARY)
    .replace('{number}', '1')
    .replace(/\/releases\/compare$/, '/releases/compare?from=1&to=1')
}

async function expiredToken(userId: string): Promise<string> {
  const { issueToken } = await import('@/lib/auth/tokens')
  return (await issueToken({ kind: 'user', userId, ttlSeconds: -60 })).accessToken
}

async function revokedToken(email: string): Promise<string> {
  const { login } = await import('@/lib/auth/login')
  const { accessToken } = (
    await login({ email, password: 'correct horse battery staple', clientAddress: 'auth-matrix' })
  ).grant
  await api('POST', '/auth/logout', { token: accessToken })
  return accessToken
}

describe.each(protectedOperations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
  'auth matrix: %s',
  (_name, operation) => {
    it('answers 401, 403 or 404 to every wrong credential and succeeds for its owner', async () => {
      const { owner, configuratorId, application, snapshotId } = await ownedResources(operation)
      const path = concretePath(operation, { configuratorId, applicationId: application.UUID, snapshotId })
      const call = (headers: Record<string, string>) =>
        api(operation.method, path, { headers, body: BODIES[operation.id]?.() })
      const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
      const [tampered] = owner.token.split('.')
      const { accessToken: anonymousToken } = await (
        await api('POST', '/auth/anonymous', { headers: { 'x-api-key': application.key } })
      ).json()
      const { accessToken: serverToken } = await (
        await api('POST', '/auth/application', { body: { key: application.key, secretKey: application.secretKey } })
      ).json()

      await expectError(await call({}), 401, 'unauthorized')
      await expectError(await call({ authorization: owner.token }), 401, 'unauthorized', /Bearer/)
      await expectError(await call({ authorization: 'Basic dXNlcjpwYXNz' }), 401, 'unauthorized')
      await expectError(await call(bearer('not-a-token')), 401, 'unauthorized')
      await expectError(await call(bearer(`${tampered}.AAAA`)), 401, 'unauthorized')
      await expectError(await call(bearer(await expiredToken(owner.UUID))), 401, 'unauthorized')
      await expectError(await call(bearer(await revokedToken(owner.email))), 401, 'unauthorized')
      await expectError(await call({ 'x-api-key': application.key }), 401, 'unauthorized')
      await expectError(await call(bearer(anonymousToken)), 403, 'forbidden')
      await expectError(await call(bearer(serverToken)), 403, 'forbidden')

      const stranger = await signUp()
      const strangerResponse = await call(bearer(stranger.token))
      if (operation.auth === 'admin') await expectError(strangerResponse, 403, 'forbidden')
      else if (operation.params) await expectError(strangerResponse, 404, 'not_found')
      else expect(strangerResponse.status).toBe(operation.status ?? 200)

      const response = await call(bearer(owner.token))
      expect(response.status).toBe(operation.status ?? 200)
    })
  },
)
