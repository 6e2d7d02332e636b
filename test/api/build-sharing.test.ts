import { describe, expect, it } from 'vitest'
import * as capabilities from '@/lib/capabilities/operations'
import { env } from '@/lib/env'
import * as sessions from '@/lib/sessions/operations'
import { api, readBody } from '@/test/support/api-client'
import { createConfigurator, expectError, openSession, registerApplication, signUp } from '@/test/support/fixtures'
import { COUNT_TO_N } from '@/test/support/models'

const LOOP = `${COUNT_TO_N}
width = 10; // [1:1:100]
depth = 10; // [1:1:100]
cube([width, depth, 1]);
`
const RUNAWAY = 1e12

type Session = Awaited<ReturnType<typeof openSession>>

const put = (s: Session, body: Record<string, number>) =>
  api('PUT', `/configsessions/${s.session.id}/parameters`, {
    token: s.token,
    body: Object.fromEntries(Object.entries(body).map(([key, value]) => [key, { value }])),
  })
const valuesOf = async (response: Response) => {
  expect(response.status).toBe(200)
  const parameters = (await response.json()) as Record<string, { value: number }>
  return Object.fromEntries(Object.entries(parameters).map(([key, { value }]) => [key, value]))
}

/** Lets requests that were sent get as far as their builds (parameters are read by then). */
const settle = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms))

async function timeLimitBuilds(): Promise<number> {
  const { db } = await import('@/lib/db')
  const { buildStored } = await import('@/lib/builds/build-cache')
  await buildStored()
  return db.cacheEntry.count({ where: { logError: { contains: 'time limit' } } })
}

describe('a newer PUT of a session supersedes the older one', () => {
  it('stops the older build nobody waits for, keeps its values under the newer ones, and builds the newest state', async () => {
    // A source of its own: its cache entries are this test's alone.
    const owner = await openSession(`${LOOP}// supersede\n`, { extraSettings: { limits: { buildSeconds: 20 } } })
    expect((await api('GET', `/configsessions/${owner.session.id}/parameters`, { token: owner.token })).status).toBe(
      200,
    )
    const before = await timeLimitBuilds()

    // Each PUT answers once its values are stored, its build started.
    expect(await valuesOf(await put(owner, { n: RUNAWAY, width: 30 }))).toEqual({ n: RUNAWAY, width: 30, depth: 10 })
    await settle()
    expect(await valuesOf(await put(owner, { n: 0, depth: 40 }))).toEqual({ n: 0, width: 30, depth: 40 })

    const info = await api('GET', `/configsessions/${owner.session.id}/objectinfo`, { token: owner.token })
    expect((await readBody(info, sessions.getObjectInfo)).boundingBox).toMatchObject({ maxX: 30, maxY: 40 })
    // The runaway build was stopped, not run to its limit and cached as failed.
    expect(await timeLimitBuilds()).toBe(before)
  })

  it('never stops a build another session waits for', async () => {
    const first = await openSession(`${LOOP}// shared build\n`)
    const opened = await api('POST', '/configsessions', {
      token: first.token,
      body: { configuratorId: first.configuratorId },
    })
    const second = { ...first, session: await readBody(opened, sessions.createSession) }
    expect((await api('GET', `/configsessions/${first.session.id}/parameters`, { token: first.token })).status).toBe(
      200,
    )

    // Both ask for the same state, so they wait for one and the same build.
    const slow = { n: 1_500_000, width: 20 }
    expect(await valuesOf(await put(first, slow))).toEqual({ ...slow, depth: 10 })
    expect(await valuesOf(await put(second, slow))).toEqual({ ...slow, depth: 10 })
    await settle()
    expect(await valuesOf(await put(first, { n: 0, width: 25 }))).toEqual({ n: 0, width: 25, depth: 10 })

    const log = await readBody(
      await api('GET', `/configsessions/${second.session.id}/log`, { token: second.token }),
      sessions.getLog,
    )
    expect(log.error).toBe('')
    expect(log.message).toContain('ECHO: 1.5e+6')
  }, 60_000)
})

describe('builds are shared fairly between customers', () => {
  /** An end customer of a new shop for `source` (one anonymous identity that opens sessions), and the shop's key to mint another. */
  async function customerOf(source: string, fields: Record<string, unknown> = {}) {
    const shop = await openSession(source, fields)
    const { key } = await registerApplication(shop.token, shop.configuratorId)
    const newCustomer = async () => {
      const minted = await api('POST', '/auth/anonymous', { headers: { 'x-api-key': key } })
      const { accessToken } = (await minted.json()) as { accessToken: string }
      const open = async (): Promise<Session> => {
        const opened = await api('POST', '/configsessions', {
          token: accessToken,
          headers: { 'x-api-key': key },
          body: { configuratorId: shop.configuratorId },
        })
        return { ...shop, token: accessToken, session: await readBody(opened, sessions.createSession) }
      }
      return { open }
    }
    return { ...(await newCustomer()), key, newCustomer }
  }

  const putAs = (s: Session, key: string, body: Record<string, number>) =>
    api('PUT', `/configsessions/${s.session.id}/parameters`, {
      token: s.token,
      headers: { 'x-api-key': key },
      body: Object.fromEntries(Object.entries(body).map(([name, value]) => [name, { value }])),
    })
  /** A PUT, then the model of what it stored: the model's answer, or the PUT's when it was refused. */
  const configure = async (s: Session, key: string, body: Record<string, number>) => {
    const set = await putAs(s, key, body)
    if (set.status !== 200) return set
    return api('GET', `/configsessions/${s.session.id}/model`, { token: s.token, headers: { 'x-api-key': key } })
  }

  it("starts a customer's build before an attacker's second runaway one, whatever the attacker's number of sessions", async () => {
    const attacker = await customerOf(`${LOOP}// attacker\n`, { extraSettings: { limits: { buildSeconds: 8 } } })
    const sessions = await Promise.all([attacker.open(), attacker.open()])
    const customer = await customerOf(`${LOOP}// customer\n`)
    const mine = await customer.open()
    expect((await configure(mine, customer.key, { width: 11 })).status).toBe(200) // parameters read, workers warm

    const answered: string[] = []
    const attacks = sessions.map((session, n) =>
      configure(session, attacker.key, { n: RUNAWAY - n }).then((response) =>
        answered.push(`attacker ${response.status}`),
      ),
    )
    await settle(2500) // the attacker's builds are running
    const normal = configure(mine, customer.key, { width: 12 }).then((response) =>
      answered.push(`customer ${response.status}`),
    )
    await Promise.all([...attacks, normal])
    // With two workers the customer does not wait for the attacker; with one it waits for one build.
    // The attacker's models end at their time limit: 409, the log says why.
    expect(answered.indexOf('customer 200')).toBeLessThan(answered.lastIndexOf('attacker 409'))
    expect(answered).toHaveLength(3)
  }, 60_000)

  it("refuses (429 with Retry-After) a customer's builds once its build time is used up, and no one else's", async () => {
    const { env } = await import('@/lib/env')
    const budget = env.CUSTOMER_BUILD_SECONDS
    env.CUSTOMER_BUILD_SECONDS = 2
    try {
      const shop = await customerOf(`${LOOP}// budget\n`, { extraSettings: { limits: { buildSeconds: 3 } } })
      const attacker = await shop.open()
      expect((await configure(attacker, shop.key, { n: RUNAWAY })).status).toBe(409) // runs its 3 s limit
      const refused = await configure(attacker, shop.key, { n: RUNAWAY - 1 })
      await expectError(refused, 429, 'too_many_requests', /build time/)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      // A state built before costs no build time, so it is still answered: the model that did not build.
      expect((await configure(attacker, shop.key, { n: RUNAWAY })).status).toBe(409)

      const other = await (await shop.newCustomer()).open()
      expect((await configure(other, shop.key, { n: 5 })).status).toBe(200)
    } finally {
      env.CUSTOMER_BUILD_SECONDS = budget
    }
  }, 60_000)
})

describe('a time limit is kept for everyone who waits', () => {
  const LIMIT_SECONDS = 4
  const RUNAWAY_SOURCE = `${COUNT_TO_N.replace('n = 0;', `n = ${RUNAWAY};`)}cube(1);\n`

  async function engineVersions(token: string): Promise<string[]> {
    const { cad } = await readBody(await api('GET', '/capabilities', { token }), capabilities.getCapabilities)
    const versions = cad.find((engine) => engine.type === 'openscad')!.versions
    return [versions[0]!, ...versions.filter((version) => version.endsWith('-native'))]
  }

  // Reading the parameters runs the model too: a request once waited for that read's limit and
  // then for the build's (twice the limit), behind a preparation that had started first.
  it(
    'answers a runaway model within its limit, sharing the preparation that started it, on every engine',
    { timeout: 120_000 },
    async () => {
      env.PREPARE_MODELS = true
      try {
        const owner = await signUp()
        for (const cadVersion of await engineVersions(owner.token)) {
          const configuratorId = await createConfigurator(owner.token, {
            cadVersion,
            extraSettings: { limits: { buildSeconds: LIMIT_SECONDS } },
          })
          const saved = await api('PUT', `/configurators/${configuratorId}/files/configurator/main.scad`, {
            token: owner.token,
            body: `${RUNAWAY_SOURCE}// ${cadVersion}\n`,
          })
          expect(saved.status).toBe(202)
          await settle(1000)
          const started = performance.now()
          const answers = await Promise.all(
            [1, 2, 3].map(async () => {
              const session = await readBody(
                await api('POST', '/configsessions', { token: owner.token, body: { configuratorId } }),
                sessions.createSession,
              )
              return api('GET', `/configsessions/${session.id}/model`, { token: owner.token })
            }),
          )
          const seconds = (performance.now() - started) / 1000
          for (const answer of answers) await expectError(answer, 409, 'conflict', /did not build/)
          console.log(
            `${cadVersion}: three customers beside the preparation got the time limit's answer after ${seconds.toFixed(1)} s (limit ${LIMIT_SECONDS} s)`,
          )
          expect(seconds).toBeLessThan(LIMIT_SECONDS * 1.6)
        }
      } finally {
        env.PREPARE_MODELS = false
      }
    },
  )
})
