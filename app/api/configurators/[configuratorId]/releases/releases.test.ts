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
  const save = async (source: string) =>
    expect((await api('PUT', `${base}/files/configurator/main.scad`, { token, body: source })).status).toBe(202)
  const preparation = async () =>
    readBody(await api('GET', `${base}/preparation`, { token }), configurators.getPreparation)
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
  const openSession = async (fields: object = {}) =>
    readBody(
      await api('POST', '/configsessions', { token, body: { configuratorId, ...fields } }),
      sessions.createSession,
    )
  const parametersOf = async (sessionId: string) =>
    Object.keys(
      await readBody(await api('GET', `/configsessions/${sessionId}/parameters`, { token }), sessions.getParameters),
    )
  return {
    owner,
    configuratorId,
    base,
    token,
    save,
    preparation,
    prepared,
    publish,
    publishPrepared,
    openSession,
    parametersOf,
  }
}

describe('releases', () => {
  it(
    'publish a prepared draft, keep each session on its release, compare and roll back',
    { timeout: PREPARATIONS_MS },
    async () => {
      const { owner, base, token, save, publishPrepared, openSession, parametersOf, publish, prepared } = await setUp()
      await save(FIRST)
      // Never published: sessions build the files as they are, as the interface says.
      const early = await openSession()
      expect(await parametersOf(early.id)).toEqual(['size'])

      const first = await publishPrepared({ note: 'The first tag' })
      expect(first).toMatchObject({
        number: 1,
        note: 'The first tag',
        current: true,
        mainFile: 'main.scad',
        files: 1,
        overridden: [],
      })
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
      const { schedulingOf } = await import('@/lib/queue/scheduling')
      const principal = {
        kind: 'user' as const,
        tokenId: 'test',
        user: await db.user.findUniqueOrThrow({ where: { id: owner.UUID } }),
      }
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

      const comparison = await readBody(
        await api('GET', `${base}/releases/compare?from=1&to=2`, { token }),
        releases.compareReleases,
      )
      expect(comparison.files).toEqual([
        {
          path: 'configurator/main.scad',
          change: 'changed',
          diff: expect.stringContaining(
            '@@ -1,2 +1,3 @@\n-size = 10; // [5:20]\n-cube(size);\n+size = 12; // [5:20]\n+height = 5; // [1:10]\n+cube([size, size, height]);\n',
          ),
          noDiff: null,
        },
      ])
      expect(Object.keys(comparison.parameters.added)).toEqual(['height'])
      expect(comparison.parameters.removed).toEqual({})
      expect(comparison.parameters.changed.size).toMatchObject({ from: { default: 10 }, to: { default: 12 } })
      expect(comparison.defaults.from?.volume).toBeCloseTo(1000)
      expect(comparison.defaults.to?.volume).toBeCloseTo(720)

      // Roll back in one step: new sessions get release 1 again; the draft is left as it was.
      expect(
        await readBody(await api('POST', `${base}/releases/1/rollback`, { token }), releases.rollBackRelease),
      ).toMatchObject({ number: 1, current: true })
      expect(await parametersOf((await openSession()).id)).toEqual(['size'])
      expect(await parametersOf((await openSession({ draft: true })).id)).toEqual(['size', 'height'])
      const list = await readBody(await api('GET', `${base}/releases`, { token }), releases.listReleases)
      expect(list.map(({ number, current, note }) => ({ number, current, note }))).toEqual([
        { number: 2, current: false, note: 'Adds a height' },
        { number: 1, current: true, note: 'The first tag' },
      ])
      expect(await readBody(await api('GET', `${base}/releases/2`, { token }), releases.getRelease)).toMatchObject({
        number: 2,
        current: false,
      })
    },
  )

  it(
    'publishes a draft whose models do not build only when told to override',
    { timeout: PREPARATIONS_MS },
    async () => {
      const { token, save, publish, prepared, openSession } = await setUp()
      await save(FAILING)
      await expectError(await publish({}), 409, 'conflict', /being prepared/)
      const { draft } = await prepared(null)
      const refused = await expectError(
        await publish({ draft }),
        422,
        'unprocessable_entity',
        /the defaults .*size must be over 50.*override: true/,
      )
      expect(refused.fields?.map((field) => field.path)).toEqual([['override']])
      const release = await readBody(
        await publish({ draft, override: true, note: 'On purpose' }),
        releases.publishRelease,
      )
      expect(release.overridden.map((failure) => failure.build)).toContain('the defaults')

      // A snapshot names the release its session built (this one cannot build: 409, as for any such model).
      const session = await openSession()
      await expectError(await api('POST', `/configsessions/${session.id}/snapshots`, { token }), 409, 'conflict')
    },
  )

  it('a snapshot names its release', { timeout: PREPARATIONS_MS }, async () => {
    const { token, save, publishPrepared, openSession } = await setUp()
    await save(FIRST)
    const draftSession = await openSession()
    const draftSnapshot = await readBody(
      await api('POST', `/configsessions/${draftSession.id}/snapshots`, { token }),
      snapshots.createSnapshot,
    )
    expect(draftSnapshot.release).toBeNull()
    await publishPrepared()
    const session = await openSession()
    expect(
      (
        await readBody(
          await api('POST', `/configsessions/${session.id}/snapshots`, { token }),
          snapshots.createSnapshot,
        )
      ).release,
    ).toBe(1)
  })

  it(
    'starts the preparation again when one was cut off (its process stopped while it ran)',
    { timeout: PREPARATIONS_MS },
    async () => {
      const { configuratorId, save, publish, prepared } = await setUp()
      await save(FIRST)
      await expectError(await publish({}), 409, 'conflict', /being prepared/)
      const { draft } = await prepared(null)
      const cutOff = new Date(Date.now() - 60 * 60_000)
      await db.preparation.update({
        where: { configuratorId },
        data: { state: 'preparing', startedAt: cutOff, testDriveDone: false },
      })
      await expectError(await publish({ draft }), 409, 'conflict', /being prepared/)
      expect((await prepared(cutOff.toISOString())).draft).toBe(draft)
      expect((await publish({ draft })).status).toBe(201)
    },
  )

  it('publishes one draft version once, however many publish it at once', { timeout: PREPARATIONS_MS }, async () => {
    const { configuratorId, base, token, save, publish, prepared, publishPrepared } = await setUp()
    await save(FIRST)
    await expectError(await publish({}), 409, 'conflict', /being prepared/)
    const { draft } = await prepared(null)
    const answers = await Promise.all([1, 2, 3, 4].map(() => publish({ draft })))
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409])
    for (const answer of answers.filter((answer) => answer.status === 409))
      await expectError(answer, 409, 'conflict', /published already as release 1 and new sessions get it/)
    expect(await db.release.count({ where: { configuratorId } })).toBe(1)

    // Rolled back past it, the same version is still release 1's: the designer is told to roll forward.
    await save(SECOND)
    expect((await publishPrepared()).number).toBe(2)
    await save(FIRST)
    expect((await publishPrepared()).number).toBe(3)
    expect((await api('POST', `${base}/releases/2/rollback`, { token })).status).toBe(200)
    await expectError(await publish({}), 409, 'conflict', /published already as release 3: roll back to release 3/)
  })

  it(
    'compares releases whose text differs in 12,000 lines within its budget, while other requests answer at once',
    { timeout: PREPARATIONS_MS },
    async () => {
      const { base, token, save, publishPrepared } = await setUp()
      const lines = (prefix: string) => Array.from({ length: 12_000 }, (_, index) => `${prefix} ${index}`).join('\n')
      const upload = async (path: string, text: string) =>
        expect((await api('PUT', `${base}/files/${path}`, { token, body: text })).status).toBe(202)
      await save(FIRST)
      await upload('configurator/data.txt', lines('before'))
      await publishPrepared()
      await save(FIRST.replace('cube(size)', 'sphere(size)'))
      await upload('configurator/data.txt', lines('after'))
      await publishPrepared()

      const started = performance.now()
      let compared = false
      const comparison = api('GET', `${base}/releases/compare?from=1&to=2`, { token }).finally(() => (compared = true))
      const healthLatencies: number[] = []
      while (!compared) {
        const sent = performance.now()
        expect((await api('GET', '/health')).status).toBe(200)
        healthLatencies.push(performance.now() - sent)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const answer = await readBody(await comparison, releases.compareReleases)
      const seconds = (performance.now() - started) / 1000
      console.log(
        `compare of 12,000 changed lines: ` +
          `${seconds.toFixed(2)} s; health beside it: max ` +
          `${Math.max(...healthLatencies).toFixed(0)} ` +
          `ms over ${healthLatencies.length} requests`,
      )
      expect(seconds).toBeLessThan(10)
      expect(Math.max(...healthLatencies)).toBeLessThan(500)
      // The large change is named with no diff and why; the small one beside it is diffed.
      expect(answer.files).toEqual([
        { path: 'configurator/data.txt', change: 'changed', diff: null, noDiff: 'too many changes to diff within 3 s' },
        {
          path: 'configurator/main.scad',
          change: 'changed',
          diff: expect.stringContaining('+sphere(size);'),
          noDiff: null,
        },
      ])
    },
  )

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
      await expectError(
        await api(method, path, { token: stranger.token, body: method === 'POST' ? {} : undefined }),
        404,
        'not_found',
      )
    }
    await expectError(await api('GET', `${base}/releases/7`, { token }), 404, 'not_found', /Release 7 not found/)
    await expectError(await api('POST', `${base}/releases/7/rollback`, { token }), 404, 'not_found')
    await expectError(await api('GET', `${base}/releases/compare?from=1&to=9`, { token }), 404, 'not_found')
    expect(
      (
        await expectError(
          await api('GET', `${base}/releases/compare?from=one&to=1`, { token }),
          422,
          'unprocessable_entity',
        )
      ).fields?.[0]?.path,
    ).toEqual(['query', 'from'])
    // A release number is a decimal integer from 1 to 2^31-1: anything else is 422 naming it, never a 500.
    for (const number of [
      '0',
      '-1',
      '+1',
      '0x1',
      '%201',
      '1%20',
      '1e3',
      '1.0',
      '2147483648',
      '9007199254740991',
      '99999999999999999999',
    ]) {
      const paths = [
        `${base}/releases/${number}`,
        `${base}/releases/${number}/rollback`,
        `${base}/releases/compare?from=${number}&to=1`,
        `${base}/releases/compare?from=1&to=${number}`,
      ]
      const [get, rollback, from, to] = await Promise.all(
        paths.map((path, index) => api(index === 1 ? 'POST' : 'GET', path, { token })),
      )
      expect(
        (await expectError(get!, 422, 'unprocessable_entity', /number: must be an integer from 1 to 2147483647/))
          .fields,
      ).toEqual([{ path: ['number'], message: 'must be an integer from 1 to 2147483647' }])
      await expectError(rollback!, 422, 'unprocessable_entity', /number: must be an integer from 1 to 2147483647/)
      expect((await expectError(from!, 422, 'unprocessable_entity')).fields?.[0]?.path).toEqual(['query', 'from'])
      expect((await expectError(to!, 422, 'unprocessable_entity')).fields?.[0]?.path).toEqual(['query', 'to'])
    }
    await expectError(
      await api('GET', `${base}/releases/2147483647`, { token }),
      404,
      'not_found',
      /Release 2147483647 not found/,
    )
    expect(
      (await expectError(await publish({ override: 'yes' }), 422, 'unprocessable_entity')).fields?.[0]?.path,
    ).toEqual(['override'])
    expect(
      (await expectError(await publish({ note: 'x'.repeat(2001) }), 422, 'unprocessable_entity')).fields?.[0]?.path,
    ).toEqual(['note'])

    // The draft link is the owner's alone.
    const application = await registerApplication(owner.token, configuratorId)
    const response = await api('POST', '/auth/anonymous', { headers: { 'x-api-key': application.key } })
    const customer = (await readBody(response, auth.issueAnonymousToken)).accessToken
    const headers = { 'x-api-key': application.key }
    expect((await api('POST', '/configsessions', { token: customer, headers, body: { configuratorId } })).status).toBe(
      200,
    )
    await expectError(
      await api('POST', '/configsessions', { token: customer, headers, body: { configuratorId, draft: true } }),
      403,
      'forbidden',
      /owner/,
    )
    await expectError(
      await api('POST', '/configsessions', { token: stranger.token, body: { configuratorId, draft: true } }),
      404,
      'not_found',
    )

    // A published configurator goes with its releases and their sessions.
    expect((await api('DELETE', base, { token })).status).toBe(204)
    expect(await db.release.count({ where: { configuratorId } })).toBe(0)
  })
})
