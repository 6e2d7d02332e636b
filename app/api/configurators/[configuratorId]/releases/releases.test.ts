import { describe, expect, it } from 'vitest'
import * as auth from '@/lib/auth/operations'
import * as configurators from '@/lib/configurators/operations'
import * as releases from '@/lib/publishing/operations'
import * as sessions from '@/lib/sessions/operations'
import * as snapshots from '@/lib/snapshots/operations'
import { db } from '@/lib/db'
import { api, readBody } from '@/test/support/api-client'
import { createConfigurator, expectError, registerApplication, signUp } from '@/test/support/fixtures'

// Drafts and releases: what the designer edits is the draft; publishing makes an immutable,
// numbered release that new sessions get, while each session keeps the one it started with.

const FIRST = 'size = 10; // [5:20]\ncube(size);\n'
const SECOND = 'size = 12; // [5:20]\nheight = 5; // [1:10]\ncube([size, size, height]);\n'
const FAILING = 'size = 10; // [5:20]\nassert(size > 50, "size must be over 50");\ncube(size);\n'

/** Each test waits for preparations: the defaults and a test drive of four builds. */
const PREPARATIONS_MS = 150_000

async function setUp() {
  const owner = await signUp()
  const configuratorId = await createConfigurator(owner.token, { name: 'Tag' })
  const base = `/configurators/${configuratorId}`
  const token = owner.token
  const save = async (source: string) => expect((await api('PUT', `${base}/files/configurator/main.scad`, { token, body: source })).status).toBe(202)
  const preparation = async () => readBody(await api('GET', `${base}/preparation`, { token }), configurators.getPreparation)
  /** The preparation once it (its test drive too) is done, when it began after the one that began at `after`. */
  const prepared = async (after: string | null = null) => {
    for (const deadline = Date.now() + 120_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
      const state = await preparation()
      if (state.state !== 'preparing' && state.startedAt !== after && state.testDrive.done) return state
      expect(Date.now()).toBeLessThan(deadline)
    }
  }
  const publish = (body: object) => api('POST', `${base}/releases`, { token, body })
  /** Publishes the draft once it is prepared: the first POST starts its preparation (409). */
  const publishPrepared = async (body: object = {}) => {
    const before = (await preparation()).startedAt
    await expectError(await publish(body), 409, 'conflict', /being prepared/)
    const { draft } = await prepared(before)
    return readBody(await publish({ draft, ...body }), releases.publishRelease)
  }
  const openSession = async (fields: object = {}) => readBody(await api('POST', '/configsessions', { token, body: { configuratorId, ...fields } }), sessions.createSession)
  const parametersOf = async (sessionId: string) =>
    Object.keys(await readBody(await api('GET', `/configsessions/${sessionId}/parameters`, { token }), sessions.getParameters))
  return { owner, configuratorId, base, token, save, preparation, prepared, publish, publishPrepared, openSession, parametersOf }
}

describe('releases', () => {
  it('publish a prepared draft, keep each session on its release, compare and roll back', { timeout: PREPARATIONS_MS }, async () => {
    const { owner, base, token, save, publishPrepared, openSession, parametersOf, publish, prepared } = await setUp()
    await save(FIRST)
    // Never published: sessions build the files as they are, as the interface says.
    const early = await openSession()
    expect(await parametersOf(early.id)).toEqual(['size'])

    const first = await publishPrepared({ note: 'The first tag' })
    expect(first).toMatchObject({ number: 1, note: 'The first tag', current: true, mainFile: 'main.scad', files: 1, overridden: [] })
    expect(first.defaults?.volume).toBeCloseTo(1000)
    expect(first.defaults?.boundingBox).toMatchObject({ minX: 0, maxX: 10, maxZ: 10 })

    // The designer edits the draft: customers keep release 1, the owner's draft link sees the edit.
    const customer = await openSession()
    await save(SECOND)
    expect(await parametersOf(customer.id)).toEqual(['size'])
    expect(await parametersOf((await openSession()).id)).toEqual(['size'])
    const draftSession = await openSession({ draft: true })
    expect(await parametersOf(draftSession.id)).toEqual(['size', 'height'])
    // The draft's builds go behind every customer's (the background workers and lane); the release's do not.
    const { findSession } = await import('@/lib/sessions/sessions')
    const { schedulingOf } = await import('@/lib/sessions/session-scheduling')
    const principal = { kind: 'user' as const, tokenId: 'test', user: await db.user.findUniqueOrThrow({ where: { id: owner.UUID } }) }
    expect(schedulingOf(await findSession(draftSession.id, principal)).fairness.background).toBe(true)
    expect(schedulingOf(await findSession(customer.id, principal)).fairness.background).toBeFalsy()

    // A draft that changed since the version reviewed is not published.
    const stale = (await prepared()).draft
    await save(SECOND.replace('height = 5', 'height = 6'))
    await expectError(await publish({ draft: stale }), 409, 'conflict', /changed since the version you reviewed/)
    await save(SECOND)

    const second = await publishPrepared({ note: 'Adds a height' })
    expect(second).toMatchObject({ number: 2, current: true })
    expect(second.defaults?.volume).toBeCloseTo(720)
    // The session opened before keeps its release until it is reopened; a new one gets the change.
    expect(await parametersOf(customer.id)).toEqual(['size'])
    expect(await parametersOf((await openSession()).id)).toEqual(['size', 'height'])

    const comparison = await readBody(await api('GET', `${base}/releases/compare?from=1&to=2`, { token }), releases.compareReleases)
    expect(comparison.files).toEqual([{ path: 'configurator/main.scad', change: 'changed', diff: expect.stringContaining('@@ -1,2 +1,3 @@\n-size = 10; // [5:20]\n-cube(size);\n+size = 12; // [5:20]\n+height = 5; // [1:10]\n+cube([size, size, height]);\n') }])
    expect(Object.keys(comparison.parameters.added)).toEqual(['height'])
    expect(comparison.parameters.removed).toEqual({})
    expect(comparison.parameters.changed.size).toMatchObject({ from: { default: 10 }, to: { default: 12 } })
    expect(comparison.defaults.from?.volume).toBeCloseTo(1000)
    expect(comparison.defaults.to?.volume).toBeCloseTo(720)

    // Roll back in one step: new sessions get release 1 again; the draft is left as it was.
    expect(await readBody(await api('POST', `${base}/releases/1/rollback`, { token }), releases.rollBackRelease)).toMatchObject({ number: 1, current: true })
    expect(await parametersOf((await openSession()).id)).toEqual(['size'])
    expect(await parametersOf((await openSession({ draft: true })).id)).toEqual(['size', 'height'])
    const list = await readBody(await api('GET', `${base}/releases`, { token }), releases.listReleases)
    expect(list.map(({ number, current, note }) => ({ number, current, note }))).toEqual([
      { number: 2, current: false, note: 'Adds a height' },
      { number: 1, current: true, note: 'The first tag' },
    ])
    expect(await readBody(await api('GET', `${base}/releases/2`, { token }), releases.getRelease)).toMatchObject({ number: 2, current: false })
  })

  it('publishes a draft whose models do not build only when told to override', { timeout: PREPARATIONS_MS }, async () => {
    const { token, save, publish, prepared, openSession } = await setUp()
    await save(FAILING)
    await expectError(await publish({}), 409, 'conflict', /being prepared/)
    const { draft } = await prepared(null)
    const refused = await expectError(await publish({ draft }), 422, 'unprocessable_entity', /the defaults .*size must be over 50.*override: true/)
    expect(refused.fields?.map((field) => field.path)).toEqual([['override']])
    const release = await readBody(await publish({ draft, override: true, note: 'On purpose' }), releases.publishRelease)
    expect(release.overridden.map((failure) => failure.build)).toContain('the defaults')

    // A snapshot names the release its session built (this one cannot build: 409, as for any such model).
    const session = await openSession()
    await expectError(await api('POST', `/configsessions/${session.id}/snapshots`, { token }), 409, 'conflict')
  })

  it('a snapshot names its release', { timeout: PREPARATIONS_MS }, async () => {
    const { token, save, publishPrepared, openSession } = await setUp()
    await save(FIRST)
    const draftSession = await openSession()
    const draftSnapshot = await readBody(await api('POST', `/configsessions/${draftSession.id}/snapshots`, { token }), snapshots.createSnapshot)
    expect(draftSnapshot.release).toBeNull()
    await publishPrepared()
    const session = await openSession()
    expect((await readBody(await api('POST', `/configsessions/${session.id}/snapshots`, { token }), snapshots.createSnapshot)).release).toBe(1)
  })

  it('starts the preparation again when one was cut off (its process stopped while it ran)', { timeout: PREPARATIONS_MS }, async () => {
    const { configuratorId, save, publish, prepared } = await setUp()
    await save(FIRST)
    await expectError(await publish({}), 409, 'conflict', /being prepared/)
    const { draft } = await prepared(null)
    const cutOff = new Date(Date.now() - 60 * 60_000)
    await db.preparation.update({ where: { configuratorId }, data: { state: 'preparing', startedAt: cutOff, testDriveDone: false } })
    await expectError(await publish({ draft }), 409, 'conflict', /being prepared/)
    expect((await prepared(cutOff.toISOString())).draft).toBe(draft)
    expect((await publish({ draft })).status).toBe(201)
  })

  it('answers the usual errors', { timeout: PREPARATIONS_MS }, async () => {
    const { owner, configuratorId, base, token, save, publish, publishPrepared } = await setUp()
    await save(FIRST)
    await publishPrepared()
    const stranger = await signUp()
    for (const [method, path] of [
      ['GET', `${base}/releases`],
      ['POST', `${base}/releases`],
      ['GET', `${base}/releases/1`],
      ['POST', `${base}/releases/1/rollback`],
      ['GET', `${base}/releases/compare?from=1&to=1`],
    ] as const) {
      await expectError(await api(method, path, { token: stranger.token, body: method === 'POST' ? {} : undefined }), 404, 'not_found')
    }
    await expectError(await api('GET', `${base}/releases/7`, { token }), 404, 'not_found', /Release 7 not found/)
    await expectError(await api('POST', `${base}/releases/7/rollback`, { token }), 404, 'not_found')
    await expectError(await api('GET', `${base}/releases/compare?from=1&to=9`, { token }), 404, 'not_found')
    expect((await expectError(await api('GET', `${base}/releases/compare?from=one&to=1`, { token }), 422, 'unprocessable_entity')).fields?.[0]?.path).toEqual(['query', 'from'])
    expect((await expectError(await publish({ override: 'yes' }), 422, 'unprocessable_entity')).fields?.[0]?.path).toEqual(['override'])
    expect((await expectError(await publish({ note: 'x'.repeat(2001) }), 422, 'unprocessable_entity')).fields?.[0]?.path).toEqual(['note'])

    // The draft link is the owner's alone.
    const application = await registerApplication(owner.token, configuratorId)
    const response = await api('POST', '/auth/anonymous', { headers: { 'x-api-key': application.key } })
    const customer = (await readBody(response, auth.issueAnonymousToken)).accessToken
    const headers = { 'x-api-key': application.key }
    expect((await api('POST', '/configsessions', { token: customer, headers, body: { configuratorId } })).status).toBe(200)
    await expectError(await api('POST', '/configsessions', { token: customer, headers, body: { configuratorId, draft: true } }), 403, 'forbidden', /owner/)
    await expectError(await api('POST', '/configsessions', { token: stranger.token, body: { configuratorId, draft: true } }), 404, 'not_found')

    // A published configurator goes with its releases and their sessions.
    expect((await api('DELETE', base, { token })).status).toBe(204)
    expect(await db.release.count({ where: { configuratorId } })).toBe(0)
  })
})
