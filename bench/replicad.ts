// The replicad mounting bracket (issue 46): a change as a customer makes it over HTTP (PUT a
// value, GET the STL, back to back, each a new value) against the same build run bare in a warm
// process of this one (replicad in-process: no server, sandbox or worker); a change back to a
// value built before; the STEP of a built model; then customers changing it at once.
import fs from 'node:fs'
import os from 'node:os'
import v8 from 'node:v8'
import vm from 'node:vm'
import opencascade from 'replicad-opencascadejs'
import * as replicad from 'replicad'
import { busyShare, machineCpu } from '@/test/support/machine'
import { describe, ms } from './stats'
import { move, openCustomer, type Model } from './foreground'
import { operationPath } from '@/lib/endpoints/client'
import { replicadSystem } from '@/lib/cad/replicad/cad-system'
import { WASM_TIERING_BUDGET } from '@/lib/cad/replicad/replicad-sandbox'
import { startServer, stopServer, tempDir } from '@/test/support/start-server'

const MOVES = 20
const CROWD = 6
const SANDBOX_BOOTS_MS = 6000
const WARM_UP_BUILDS = 15
const BRACKET: Model = { name: 'Mounting bracket', slug: 'mounting-bracket', parameter: 'width', value: (i) => 50 + i }
const { $tolerance: tolerance = 0.1, $angularTolerance: angularDegrees = 15 } = replicadSystem.defaultQuality
  .preview as Record<string, number | undefined>

type Main = (r: typeof replicad, params: Record<string, unknown>) => { shape: replicad.Shape3D }[]

/**
 * The bracket built and meshed at the preview's tolerances by replicad in this process, warm: the
 * time of one build. V8 tiers OpenCascade's WebAssembly up as it runs, so this process takes the
 * sandbox's tiering budget, and both it and the server build the bracket WARM_UP_BUILDS times first.
 */
async function bareBuilder(): Promise<(width: number) => number> {
  v8.setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`)
  const oc = await opencascade({ print: () => {}, printErr: () => {} })
  replicad.setOC(oc)
  // The demo's own code (ours, trusted), evaluated without the sandbox the server puts it in.
  const source = fs.readFileSync('demo/mounting-bracket/main.js', 'utf8')
  const { defaultParams, main } = vm.runInNewContext(`${source}\n;({ defaultParams, main })`) as {
    defaultParams: Record<string, unknown>
    main: Main
  }
  const build = (width: number) => {
    const started = performance.now()
    const { shape } = main(replicad, { ...defaultParams, width })[0]!
    shape.mesh({ tolerance, angularTolerance: (angularDegrees * Math.PI) / 180 })
    replicad.measureVolume(shape)
    const elapsed = performance.now() - started
    shape.delete()
    return elapsed
  }
  for (let i = 0; i < WARM_UP_BUILDS; i++) build(100 + i)
  return build
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await run()
  return performance.now() - started
}

export async function benchReplicad(): Promise<void> {
  console.log(
    '\n## replicad (B-rep) mounting bracket: a change over HTTP against the same build run bare, taking turns',
  )
  const bareBuild = await bareBuilder()
  const server = await startServer({ DATA_DIR: tempDir(), SEED_DEMO: 'true', PREPARE_MODELS: 'false' })
  try {
    const customer = await openCustomer(server.url, BRACKET)
    // The workers' sandboxes boot at start (about a second of CPU each) and warm up while idle; then
    // the server builds the bracket as often as the bare builder did before either is timed.
    await new Promise((resolve) => setTimeout(resolve, SANDBOX_BOOTS_MS))
    for (let i = 0; i < WARM_UP_BUILDS; i++) await move(customer, 'width', 130 + i)
    // Each change beside a bare build of the same width, taking turns: both see the machine as it is then.
    const changes: number[] = []
    const bares: number[] = []
    for (let i = 0; i < MOVES; i++) {
      bares.push(bareBuild(BRACKET.value(i)))
      changes.push((await move(customer, 'width', BRACKET.value(i))).ms)
    }
    const bare = describe(bares).p50
    const cached: number[] = []
    for (let i = 0; i < MOVES; i++) cached.push((await move(customer, 'width', BRACKET.value(i))).ms)
    // The STEP of a model built already (the last value): the export alone, each a new one.
    const steps: number[] = []
    for (let i = 0; i < 4; i++) {
      await move(customer, 'height', 40 + i)
      const path = operationPath('getModel', { params: { sessionId: customer.sessionId } })
      steps.push(
        await timed(async () => {
          const response = await fetch(`${customer.url}/api${path}?type=step`, { headers: customer.headers })
          if (!response.ok) throw new Error(`STEP: ${response.status} ${await response.text()}`)
          await response.arrayBuffer()
        }),
      )
    }
    const change = describe(changes)
    console.log('| measure | p50 | p95 | against the bare build |')
    console.log('|---|---|---|---|')
    console.log(`| bare build (warm, in-process) | ${ms(bare)} | | 1.00x |`)
    console.log(
      `| change (PUT + GET STL, new value) | ${ms(change.p50)} | ${ms(change.p95)} | ${(change.p50 / bare).toFixed(2)}x (goal ≤ 1.25x) |`,
    )
    console.log(`| change to a value built before | ${ms(describe(cached).p50)} | ${ms(describe(cached).p95)} | |`)
    console.log(`| STEP of the built model | ${ms(describe(steps).p50)} | ${ms(describe(steps).p95)} | |`)

    // Customers at once, each changing its own session to new values, back to back.
    // Each its own depth, so that every width it sets is a new build.
    const crowd = await Promise.all(
      Array.from({ length: CROWD }, async (_, c) => {
        const member = await openCustomer(server.url, BRACKET)
        await move(member, 'depth', 30 + c)
        return member
      }),
    )
    const cpu = machineCpu()
    const started = performance.now()
    const all = await Promise.all(
      crowd.map(async (member) => {
        const times: number[] = []
        for (let i = 0; i < MOVES; i++) times.push((await move(member, 'width', BRACKET.value(i))).ms)
        return times
      }),
    )
    const wall = performance.now() - started
    const { p50, p95 } = describe(all.flat())
    const throughput = (CROWD * MOVES) / (wall / 1000)
    const limit = os.availableParallelism() / (bare / 1000)
    console.log(
      `\n${CROWD} customers at once, ${MOVES} new values each: change p50 ${ms(p50)}, p95 ${ms(p95)}; ` +
        `${throughput.toFixed(1)} changes/s against the machine's limit of ${limit.toFixed(1)} (its ${os.availableParallelism()} cores over the bare build), ` +
        `${((100 * throughput) / limit).toFixed(0)} %; CPU busy ${(100 * busyShare(cpu)).toFixed(0)} %.`,
    )
    console.log(
      `\n${MOVES} changes back to back at the demo's preview quality (${tolerance} mm, ${angularDegrees}°); the bare build meshes and measures as the sandbox does, without sandbox, worker or server.`,
    )
  } finally {
    await stopServer(server)
  }
}
