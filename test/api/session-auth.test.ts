import { beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { OPERATIONS } from '@/lib/endpoints/openapi'
import * as auth from '@/lib/auth/operations'
import * as sessions from '@/lib/sessions/operations'
import type { ZSession } from '@/lib/sessions/schemas'
import { api, readBody } from '@/test/support/api-client'
import { createConfigurator, expectError, registerApplication, signUp } from '@/test/support/fixtures'

const MODEL = `
width = 40; // [10:1:100]
cube([width, 10, 2]);
`

type Application = Awaited<ReturnType<typeof registerApplication>>

async function uploadModel(token: string, configuratorId: string) {
  expect(
    (await api('PUT', `/configurators/${configuratorId}/files/configurator/main.scad`, { token, body: MODEL })).status,
  ).toBe(202)
}

async function anonymousToken(application: Application): Promise<string> {
  const response = await api('POST', '/auth/anonymous', { headers: { 'x-api-key': application.key } })
  return (await readBody(response, auth.issueAnonymousToken)).accessToken
}

async function serverToken(application: Application): Promise<string> {
  const response = await api('POST', '/auth/application', {
    body: { key: application.key, secretKey: application.secretKey },
  })
  return (await readBody(response, auth.issueServerToken)).accessToken
}

type Session = z.infer<typeof ZSession>

async function openSession(
  token: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Session> {
  return readBody(await api('POST', '/configsessions', { token, body, headers }), sessions.createSession)
}

// Everything the matrix needs: one configurator with two applications, a second configurator
// with its own application, a session opened through application A and one by the owner.
let world: {
  configuratorId: string
  ownerToken: string
  strangerToken: string
  application: Application
  otherApplication: Application
  foreignApplication: Application
  anonymous: string
  server: string
  foreignAnonymous: string
  applicationSession: Session
  ownerSession: Session
}

beforeAll(async () => {
  const owner = await signUp()
  const configuratorId = await createConfigurator(owner.token)
  await uploadModel(owner.token, configuratorId)
  const foreignConfiguratorId = await createConfigurator(owner.token)
  await uploadModel(owner.token, foreignConfiguratorId)
  const application = await registerApplication(owner.token, configuratorId)
  const otherApplication = await registerApplication(owner.token, configuratorId, { name: 'Second shop' })
  const foreignApplication = await registerApplication(owner.token, foreignConfiguratorId, { name: 'Foreign shop' })
  const anonymous = await anonymousToken(application)
  world = {
    configuratorId,
    ownerToken: owner.token,
    strangerToken: (await signUp()).token,
    application,
    otherApplication,
    foreignApplication,
    anonymous,
    server: await serverToken(application),
    foreignAnonymous: await anonymousToken(foreignApplication),
    applicationSession: await openSession(anonymous, { configuratorId }, { 'x-api-key': application.key }),
    ownerSession: await openSession(owner.token, { configuratorId }),
  }
})

const endpoints: [string, string, () => unknown, number][] = [
  ['GET', '', () => undefined, 200],
  ['GET', '/parameters', () => undefined, 200],
  ['PUT', '/parameters', () => ({ width: { value: 50 } }), 200],
  ['GET', '/objectinfo', () => undefined, 200],
  ['GET', '/log', () => undefined, 200],
  ['GET', '/save', () => undefined, 200],
  ['GET', '/files', () => undefined, 200],
  ['POST', '/files?name=note.txt', () => 'a note', 201],
]

describe.each(endpoints)('%s /configsessions/{id}%s', (method, suffix, body, status) => {
  const call = (sessionId: string, token: string | undefined, headers: Record<string, string> = {}) =>
    api(method, `/configsessions/${sessionId}${suffix}`, { token, headers, body: body() })

  it("works with the owner's user token", async () => {
    expect((await call(world.applicationSession.id, world.ownerToken)).status).toBe(status)
    expect((await call(world.ownerSession.id, world.ownerToken)).status).toBe(status)
  })

  it("works with the application's anonymous token and its X-API-KEY", async () => {
    expect(
      (await call(world.applicationSession.id, world.anonymous, { 'x-api-key': world.application.key })).status,
    ).toBe(status)
  })

  it("works with the application's server token and its X-API-KEY", async () => {
    expect((await call(world.applicationSession.id, world.server, { 'x-api-key': world.application.key })).status).toBe(
      status,
    )
  })

  it('answers 401 to an application token without X-API-KEY', async () => {
    await expectError(await call(world.applicationSession.id, world.anonymous), 401, 'unauthorized', /X-API-KEY/)
  })

  it("answers 403 to an application token with another application's key", async () => {
    await expectError(
      await call(world.applicationSession.id, world.anonymous, { 'x-api-key': world.otherApplication.key }),
      403,
      'forbidden',
    )
  })

  it("answers 404 to the token of another configurator's application", async () => {
    await expectError(
      await call(world.applicationSession.id, world.foreignAnonymous, { 'x-api-key': world.foreignApplication.key }),
      404,
      'not_found',
    )
  })

  it("answers 404 to another user's token", async () => {
    await expectError(await call(world.applicationSession.id, world.strangerToken), 404, 'not_found')
  })

  it('answers 401 without a token, even with the X-API-KEY', async () => {
    await expectError(await call(world.applicationSession.id, undefined), 401, 'unauthorized')
    await expectError(
      await call(world.applicationSession.id, undefined, { 'x-api-key': world.application.key }),
      401,
      'unauthorized',
    )
  })

  it('answers 404 to an anonymous token on a session the owner opened', async () => {
    await expectError(
      await call(world.ownerSession.id, world.anonymous, { 'x-api-key': world.application.key }),
      404,
      'not_found',
    )
  })

  it('answers 404 to an unknown or malformed session id', async () => {
    await expectError(await call('00000000-0000-4000-8000-000000000000', world.ownerToken), 404, 'not_found')
    await expectError(await call('not-a-session', world.ownerToken), 404, 'not_found')
  })
})

describe('POST /configsessions', () => {
  it('opens a session with configuratorUUID instead of configuratorId', async () => {
    const owner = await signUp()
    const configuratorId = await createConfigurator(owner.token)
    await uploadModel(owner.token, configuratorId)
    const session = await openSession(owner.token, { configuratorUUID: configuratorId })
    expect((await api('GET', `/configsessions/${session.id}/parameters`, { token: owner.token })).status).toBe(200)
  })

  it('answers 422 naming configuratorId when no id is sent, and for a malformed id', async () => {
    const { token } = await signUp()
    await expectError(
      await api('POST', '/configsessions', { token, body: {} }),
      422,
      'unprocessable_entity',
      /configuratorId/,
    )
    await expectError(
      await api('POST', '/configsessions', { token, body: { configuratorId: 'nope' } }),
      422,
      'unprocessable_entity',
      /configuratorId/,
    )
  })

  it("answers 404 for an unknown configurator, someone else's, and another configurator's application", async () => {
    const owner = await signUp()
    const configuratorId = await createConfigurator(owner.token)
    const stranger = await signUp()
    await expectError(
      await api('POST', '/configsessions', {
        token: owner.token,
        body: { configuratorId: '00000000-0000-4000-8000-000000000000' },
      }),
      404,
      'not_found',
    )
    await expectError(
      await api('POST', '/configsessions', { token: stranger.token, body: { configuratorId } }),
      404,
      'not_found',
    )
    const foreign = await api('POST', '/configsessions', {
      token: world.foreignAnonymous,
      headers: { 'x-api-key': world.foreignApplication.key },
      body: { configuratorId: world.configuratorId },
    })
    await expectError(foreign, 404, 'not_found')
  })

  it('lets an anonymous token open a session only with its X-API-KEY', async () => {
    const { configuratorId } = world
    await expectError(
      await api('POST', '/configsessions', { token: world.anonymous, body: { configuratorId } }),
      401,
      'unauthorized',
    )
    await expectError(
      await api('POST', '/configsessions', {
        token: world.anonymous,
        headers: { 'x-api-key': world.otherApplication.key },
        body: { configuratorId },
      }),
      403,
      'forbidden',
    )
  })

  it('with secureInit refuses the anonymous token (403) and accepts the server token with X-API-KEY', async () => {
    const owner = await signUp()
    const configuratorId = await createConfigurator(owner.token)
    await uploadModel(owner.token, configuratorId)
    const application = await registerApplication(owner.token, configuratorId, { secureInit: true })
    const body = { configuratorId }
    const headers = { 'x-api-key': application.key }

    await expectError(
      await api('POST', '/configsessions', { token: await anonymousToken(application), headers, body }),
      403,
      'forbidden',
      /server token/,
    )
    const server = await serverToken(application)
    await expectError(await api('POST', '/configsessions', { token: server, body }), 401, 'unauthorized', /X-API-KEY/)
    const session = await openSession(server, body, headers)
    // The session belongs to the application, so the customer's browser can use it afterwards.
    const anonymous = await anonymousToken(application)
    expect((await api('GET', `/configsessions/${session.id}/parameters`, { token: anonymous, headers })).status).toBe(
      200,
    )
    expect((await api('POST', '/configsessions', { token: owner.token, body })).status).toBe(200)
  })
})

describe('GET /configsessions/{id}', () => {
  it('answers id, renderingKey, modelKey and one renderSession of the configurator’s renderer type', async () => {
    const response = await api('GET', `/configsessions/${world.applicationSession.id}`, {
      token: world.anonymous,
      headers: { 'x-api-key': world.application.key },
    })
    const details = await readBody(response, sessions.getSession)
    expect(details).toEqual({
      id: world.applicationSession.id,
      renderingKey: expect.any(String),
      modelKey: expect.any(String),
      renderSessions: [{ rendererType: 'webgl', sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/) }],
    })
    expect(details.renderSessions).toEqual(world.applicationSession.renderSessions)
    expect(details.modelKey).not.toBe(details.renderingKey)
  })

  it('lists a renderSession for each renderer of extraSettings.renderers too', async () => {
    const owner = await signUp()
    const configuratorId = await createConfigurator(owner.token, {
      rendererType: 'headless',
      extraSettings: { renderers: ['webgl', 'headless'] },
    })
    await uploadModel(owner.token, configuratorId)
    const opened = await openSession(owner.token, { configuratorId })
    const details = await readBody(
      await api('GET', `/configsessions/${opened.id}`, { token: owner.token }),
      sessions.getSession,
    )
    expect(details.renderSessions.map((renderer) => renderer.rendererType)).toEqual(['headless', 'webgl'])
    expect(new Set(details.renderSessions.map((renderer) => renderer.sessionId)).size).toBe(2)
    expect(details.renderSessions).toEqual(opened.renderSessions)
  })

  it('answers keys that open the model of this session only', async () => {
    const details = await readBody(
      await api('GET', `/configsessions/${world.ownerSession.id}`, { token: world.ownerToken }),
      sessions.getSession,
    )
    expect(
      (await api('GET', `/configsessions/${world.ownerSession.id}/model?key=${encodeURIComponent(details.modelKey)}`))
        .status,
    ).toBe(200)
    await expectError(
      await api(
        'GET',
        `/configsessions/${world.applicationSession.id}/model?key=${encodeURIComponent(details.modelKey)}`,
      ),
      403,
      'forbidden',
    )
    await expectError(
      await api(
        'GET',
        `/configsessions/${world.ownerSession.id}/model?key=${encodeURIComponent(details.renderingKey)}`,
      ),
      403,
      'forbidden',
    )
  })
})

describe('anonymous identities', () => {
  const OPERATION_BODIES: Record<string, () => unknown> = {
    setParameters: () => ({ width: { value: 60 } }),
    prefetchModels: () => ({ candidates: [{ width: { value: 61 } }] }),
    addSessionFile: () => 'a note',
    updateScene: () => ({ materials: {} }),
  }
  const OPERATION_QUERIES: Record<string, string> = {
    addSessionFile: '?name=other.txt',
    getRendererImage: '?w=10&h=10',
  }
  // Every operation on one session, plus the built-in files service's upload.
  const sessionOperations = OPERATIONS.filter((operation) => operation.path.startsWith('/configsessions/{sessionId}'))

  async function renew(application: Application, token: string): Promise<string> {
    const response = await api('POST', '/auth/anonymous', { token, headers: { 'x-api-key': application.key } })
    return (await readBody(response, auth.issueAnonymousToken)).accessToken
  }

  async function sessionOf(token: string) {
    const headers = { 'x-api-key': world.application.key }
    const session = await openSession(token, { configuratorId: world.configuratorId }, headers)
    const upload = await api('POST', `/configsessions/${session.id}/files?name=note.txt`, {
      token,
      headers,
      body: 'a note',
    })
    const { name: fileId } = await readBody(upload, sessions.addSessionFile)
    return { session, fileId }
  }

  function concretePath(path: string, session: Session, fileId: string): string {
    return path
      .replace('{sessionId}', session.id)
      .replace('{rendererId}', session.renderSessions[0]?.sessionId ?? '')
      .replace('{fileId}', fileId)
      .replace('{path}', 'scene.json')
  }

  it.each(sessionOperations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    '%s answers 404 to another anonymous identity of the same application, and works for the one that opened it',
    async (_name, operation) => {
      const customer = await anonymousToken(world.application)
      const { session, fileId } = await sessionOf(customer)
      const other = await anonymousToken(world.application)
      const call = (token: string) =>
        api(operation.method, concretePath(operation.path, session, fileId) + (OPERATION_QUERIES[operation.id] ?? ''), {
          token,
          headers: { 'x-api-key': world.application.key },
          body: OPERATION_BODIES[operation.id]?.(),
        })
      await expectError(await call(other), 404, 'not_found', new RegExp(`Session ${session.id} not found`))
      const own = await call(customer)
      if (own.status >= 400)
        expect(((await own.json()) as { error: { message: string } }).error.message).not.toMatch(/Session .* not found/)
    },
  )

  it('answers 404 on the files service upload to another anonymous identity', async () => {
    const customer = await anonymousToken(world.application)
    const { session } = await sessionOf(customer)
    const upload = (token: string) =>
      api('PUT', `/services/files/upload/configsessions/${session.id}/logo.svg`, {
        token,
        headers: { 'x-api-key': world.application.key },
        body: '<svg/>',
      })
    await expectError(await upload(await anonymousToken(world.application)), 404, 'not_found')
    expect((await upload(customer)).status).toBe(202)
  })

  it('keeps the identity and its sessions across renewals that present the current token', async () => {
    const headers = { 'x-api-key': world.application.key }
    const customer = await anonymousToken(world.application)
    const { session } = await sessionOf(customer)
    const renewed = await renew(world.application, customer)
    const renewedAgain = await renew(world.application, renewed)
    expect(new Set([customer, renewed, renewedAgain]).size).toBe(3)
    expect(
      (await api('GET', `/configsessions/${session.id}/parameters`, { token: renewedAgain, headers })).status,
    ).toBe(200)
    // A session opened after the renewal belongs to the same customer.
    const later = await openSession(renewedAgain, { configuratorId: world.configuratorId }, headers)
    expect((await api('GET', `/configsessions/${later.id}`, { token: customer, headers })).status).toBe(200)
  })

  it('starts a new identity, never an error, when the presented token is not a current anonymous one of this application', async () => {
    const headers = { 'x-api-key': world.application.key }
    const customer = await anonymousToken(world.application)
    const { session } = await sessionOf(customer)
    const { issueToken } = await import('@/lib/auth/tokens')
    const expired = (await issueToken({ kind: 'anonymous', applicationId: world.application.UUID, ttlSeconds: -60 }))
      .accessToken
    const foreign = await anonymousToken(world.foreignApplication)
    const otherShop = await anonymousToken(world.otherApplication)
    for (const presented of [expired, foreign, otherShop, world.server, world.ownerToken, 'not-a-token']) {
      const fresh = await renew(world.application, presented)
      await expectError(await api('GET', `/configsessions/${session.id}`, { token: fresh, headers }), 404, 'not_found')
    }
  })

  it('lets the first anonymous identity that uses a session the server token opened keep it', async () => {
    const headers = { 'x-api-key': world.application.key }
    const handedOut = await openSession(world.server, { configuratorId: world.configuratorId }, headers)
    const customer = await anonymousToken(world.application)
    expect((await api('GET', `/configsessions/${handedOut.id}`, { token: customer, headers })).status).toBe(200)
    await expectError(
      await api('GET', `/configsessions/${handedOut.id}`, { token: await anonymousToken(world.application), headers }),
      404,
      'not_found',
    )
    expect((await api('GET', `/configsessions/${handedOut.id}`, { token: world.server, headers })).status).toBe(200)
    expect((await api('GET', `/configsessions/${handedOut.id}`, { token: world.ownerToken })).status).toBe(200)
  })

  it("restores a saved session as the restoring customer's own", async () => {
    const headers = { 'x-api-key': world.application.key }
    const customer = await anonymousToken(world.application)
    const { session } = await sessionOf(customer)
    const zip = new Uint8Array(
      await (await api('GET', `/configsessions/${session.id}/save`, { token: customer, headers })).arrayBuffer(),
    )
    const restore = (token: string) =>
      api('POST', `/configsessions?configuratorId=${world.configuratorId}`, {
        token,
        headers: { ...headers, 'content-type': 'application/zip' },
        body: zip,
      })
    const restored = await readBody(await restore(customer), sessions.createSession)
    expect((await api('GET', `/configsessions/${restored.id}/files`, { token: customer, headers })).status).toBe(200)
    await expectError(
      await api('GET', `/configsessions/${restored.id}/files`, {
        token: await anonymousToken(world.application),
        headers,
      }),
      404,
      'not_found',
    )
  })
})
