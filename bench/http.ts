// A cached slider move over HTTP, as the customer page makes it: PUT parameters, then GET the
// model, both answered from the build cache, against a real server on the embedded database
// and on PostgreSQL (builds on its queue). Beside it the floor: two requests Next.js answers
// without any work of ours (an unknown /api path).
import { operationMethod, operationPath } from '@/lib/endpoints/client'
import { type StartedServer, signIn, startServer, stopServer, tempDir } from '@/test/support/start-server'
import { createTestDatabase, dropTestDatabase } from '../test/support/postgres'
import { describe, hasProductionBuild, ms, timeRuns } from './stats'

const RUNS = 200
const DEMOS = [
  { name: 'Box with lid', parameter: 'width', values: [50, 51] },
  { name: 'Name tag', parameter: 'text_size', values: [8, 9] },
  { name: 'Spur gear', parameter: 'teeth', values: [20, 21] },
]

const WARM_UP = 10

async function fetched(url: string, init?: RequestInit): Promise<void> {
  const response = await fetch(url, init)
  await response.arrayBuffer()
  if (!response.ok && response.status !== 404) throw new Error(`${url}: ${response.status}`)
}

async function measure(server: StartedServer): Promise<string[]> {
  const headers = { authorization: `Bearer ${await signIn(server.url)}`, 'content-type': 'application/json' }
  const configurators = (await (
    await fetch(`${server.url}/api${operationPath('listConfigurators')}`, { headers })
  ).json()) as { UUID: string; name: string }[]
  const floor = describe(
    await timeRuns(
      async () => {
        await fetched(`${server.url}/api/nothing`)
        await fetched(`${server.url}/api/nothing`)
      },
      RUNS,
      WARM_UP,
    ),
  )
  const rows = [`| two requests with no work of ours (floor) | ${ms(floor.p50)} | ${ms(floor.p95)} |`]
  for (const demo of DEMOS) {
    const { UUID } = configurators.find((configurator) => configurator.name === demo.name)!
    const opened = await fetch(`${server.url}/api${operationPath('createSession')}`, {
      method: operationMethod('createSession'),
      headers,
      body: JSON.stringify({ configuratorId: UUID }),
    })
    const { id } = (await opened.json()) as { id: string }
    const [parameters, model] = [
      operationPath('setParameters', { params: { sessionId: id } }),
      operationPath('getModel', { params: { sessionId: id } }),
    ]
    let run = 0
    const move = describe(
      await timeRuns(
        async () => {
          const value = demo.values[run++ % demo.values.length]
          await fetched(`${server.url}/api${parameters}`, {
            method: operationMethod('setParameters'),
            headers,
            body: JSON.stringify({ [demo.parameter]: { value } }),
          })
          await fetched(`${server.url}/api${model}`, { headers })
        },
        RUNS,
        WARM_UP,
      ),
    )
    rows.push(`| ${demo.name}: PUT then GET model (STL), cached | ${ms(move.p50)} | ${ms(move.p95)} |`)
  }
  return rows
}

export async function benchHttp(): Promise<void> {
  console.log('\n## Cached slider move over HTTP (real server, PUT parameters then GET model)')
  if (!hasProductionBuild('the server')) return
  const databaseUrl = await createTestDatabase().catch(() => null)
  // bench/run.ts runs without DATABASE_URL, which the embedded server inherits.
  const setups: [string, Record<string, string>][] = [['embedded database (PGlite)', {}]]
  if (databaseUrl) setups.push(['PostgreSQL, builds on its queue', { DATABASE_URL: databaseUrl }])
  for (const [label, env] of setups) {
    const server = await startServer({ DATA_DIR: tempDir(), SEED_DEMO: 'true', PREPARE_MODELS: 'false', ...env })
    try {
      console.log(`\n${label}:\n\n| figure | p50 | p95 |\n|---|---|---|`)
      for (const row of await measure(server)) console.log(row)
    } finally {
      await stopServer(server)
    }
  }
  if (databaseUrl) await dropTestDatabase(databaseUrl)
  console.log(`\n${RUNS} moves each between two values built before. Aim: 10 ms p50.`)
}
