// A normal customer's builds with and without attackers whose builds run away, measured in
// the same run: two anonymous customers of another shop, each keeping three sessions asking
// for builds that run to their time limit (each PUT, then its model, which waits for the build).
import { describe, ms } from './stats'
import { call } from '../test/support/api-client'
import { COUNT_TO_N } from '../test/support/models'

const RUNS = 12
const ATTACKERS = 2
const ATTACKER_SESSIONS = 3
const RUNAWAY = `${COUNT_TO_N}cube(1);\n`

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

async function anonymousSession(configuratorId: string, apiKey: string) {
  const { accessToken } = await json<{ accessToken: string }>(
    await call('issueAnonymousToken', { headers: { 'x-api-key': apiKey } }),
  )
  const as = { token: accessToken, headers: { 'x-api-key': apiKey } }
  const { id } = await json<{ id: string }>(await call('createSession', { ...as, body: { configuratorId } }))
  return { id, as, accessToken }
}

/** Uncached PUT-then-GET-model times of a customer of the box demo, one distinct width each. */
async function customerBuilds(configuratorId: string, apiKey: string, firstWidth: number): Promise<number[]> {
  const customer = await anonymousSession(configuratorId, apiKey)
  const times: number[] = []
  for (let width = firstWidth; width < firstWidth + RUNS; width++) {
    const started = performance.now()
    await json(
      await call('setParameters', {
        ...customer.as,
        params: { sessionId: customer.id },
        body: { width: { value: width } },
      }),
    )
    const model = await call('getModel', { ...customer.as, params: { sessionId: customer.id } })
    if (!model.ok) throw new Error(`model: ${model.status}`)
    await model.arrayBuffer()
    times.push(performance.now() - started)
  }
  return times
}

/** Starts the attackers: anonymous identities of one shop, several sessions each, each asking for the model of a new runaway value. */
async function startAttackers(token: string) {
  const configuratorId = (
    await json<{ UUID: string }>(
      await call('createConfigurator', {
        token,
        body: { name: 'Runaway', mainFile: 'main.scad', extraSettings: { limits: { buildSeconds: 5 } } },
      }),
    )
  ).UUID
  await call('uploadConfiguratorFile', {
    token,
    params: { configuratorId, path: ['configurator', 'main.scad'] },
    body: RUNAWAY,
  })
  const { UUID } = await json<{ UUID: string }>(
    await call('registerApplication', {
      token,
      params: { configuratorId },
      body: { name: 'Attacker', domain: 'attacker.example' },
    }),
  )
  const { key } = await json<{ key: string }>(await call('getApplication', { token, params: { applicationId: UUID } }))
  let isRunning = true
  let builds = 0
  let refused = 0
  const attack = async (attacker: number) => {
    const identity = await anonymousSession(configuratorId, key)
    const sessions = Array.from({ length: ATTACKER_SESSIONS }, async (_, index) => {
      const { id } = await json<{ id: string }>(
        await call('createSession', { ...identity.as, body: { configuratorId } }),
      )
      for (let n = 1e12 - attacker * ATTACKER_SESSIONS - index; isRunning; n -= ATTACKERS * ATTACKER_SESSIONS) {
        await (
          await call('setParameters', { ...identity.as, params: { sessionId: id }, body: { n: { value: n } } })
        ).arrayBuffer()
        const model = await call('getModel', { ...identity.as, params: { sessionId: id } })
        if (model.status === 429) refused++
        else builds++
        await model.arrayBuffer()
      }
    })
    await Promise.all(sessions)
  }
  const loops = Array.from({ length: ATTACKERS }, (_, attacker) => attack(attacker))
  // Its first builds are running before the customer starts.
  await new Promise((resolve) => setTimeout(resolve, 1000))
  return {
    stop: async () => {
      isRunning = false
      await Promise.all(loops)
      return { builds, refused }
    },
  }
}

export async function benchAttack(ids: Map<string, string>, token: string): Promise<void> {
  const configuratorId = ids.get('box-with-lid')!
  const [{ key }] = await json<[{ key: string }]>(await call('listApplications', { token, params: { configuratorId } }))

  await customerBuilds(configuratorId, key, 40) // warm the workers and the model's parameters
  const alone = describe(await customerBuilds(configuratorId, key, 60))
  const attackers = await startAttackers(token)
  const attacked = describe(await customerBuilds(configuratorId, key, 80))
  const { builds, refused } = await attackers.stop()

  console.log('\n## Fair builds: a customer (box with lid, PUT then GET model, uncached) alone and beside attackers')
  console.log(
    `The attackers: ${ATTACKERS} anonymous customers of another shop, ${ATTACKER_SESSIONS} sessions each asking for builds that run to their 5 s limit;`,
  )
  console.log(`${builds} of their builds answered, ${refused} refused (429) while the customer built ${RUNS} times.`)
  console.log('| customer | p50 | p95 |')
  console.log('|---|---|---|')
  console.log(`| alone | ${ms(alone.p50)} | ${ms(alone.p95)} |`)
  console.log(`| beside the attackers | ${ms(attacked.p50)} | ${ms(attacked.p95)} |`)
  console.log(`| ratio | ${(attacked.p50 / alone.p50).toFixed(2)}x | ${(attacked.p95 / alone.p95).toFixed(2)}x |`)
  console.log(
    `\nAim: within 2x of alone, and p95 beside the attackers ≤ 1.5 s (issue 27, fair shares): ${attacked.p95 <= 1500 ? 'met' : 'not met'}.`,
  )
}
