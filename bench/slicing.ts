// PrusaSlicer's quote (issue 48). How long a slice takes per model: in its sandbox, as the
// service runs it, against a direct `prusa-slicer` run of the same 3MF and profile (the baseline,
// in this run). And what a running slice costs a customer: moves back to back, each a new value,
// while another session's slice runs in the background, against the same moves on an otherwise
// idle server (goal ≤ 1.1×, as for all background work).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { operationPath } from '@/lib/endpoints/client'
import { env } from '@/lib/env'
import { slice } from '@/lib/slicing/prusa-slicer'
import { flatConfig } from '@/lib/slicing/profiles'
import { isSlicerInstalled, SLICE_LIMITS } from '@/lib/slicing/slicer'
import { startServer, stopServer, tempDir } from '@/test/support/start-server'
import { settledMachine } from '@/test/support/machine'
import { type BackgroundWork, nextMoveWhile } from './background-cost'
import { MODELS, move, openCustomer, type Model } from './foreground'
import { describe, hasProductionBuild, ms } from './stats'

const RUNS = 3
/** The session whose slices run meanwhile: a gear of many teeth slices for seconds. */
const SLICED: Model = MODELS.find((model) => model.slug === 'spur-gear')!
const MOVING: Model = MODELS.find((model) => model.slug === 'box-with-lid')!

type Customer = Awaited<ReturnType<typeof openCustomer>>

async function objectInfo({ url, headers, sessionId }: Customer) {
  const response = await fetch(`${url}/api${operationPath('getObjectInfo', { params: { sessionId } })}`, { headers })
  if (!response.ok) throw new Error(`objectinfo: ${response.status} ${await response.text()}`)
  return (await response.json()) as {
    slice: { state: string; printTimeSeconds: number | null; layers: number | null; error: string | null }
  }
}

async function threeMf({ url, headers, sessionId }: Customer): Promise<Uint8Array> {
  const path = operationPath('getModel', { params: { sessionId }, query: { type: '3mf' } })
  const response = await fetch(`${url}/api${path}`, { headers })
  if (!response.ok) throw new Error(`3mf: ${response.status}`)
  return new Uint8Array(await response.arrayBuffer())
}

function median(samples: number[]): number {
  return describe(samples).p50
}

/** A direct run of PrusaSlicer on the same files, no sandbox: the baseline. */
function directSlice(model: Uint8Array, config: string): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-bench-slice-'))
  try {
    fs.writeFileSync(path.join(dir, 'model.3mf'), model)
    fs.writeFileSync(path.join(dir, 'config.ini'), config)
    const started = performance.now()
    execFileSync(env.PRUSA_SLICER, ['--export-gcode', '--load', 'config.ini', '--output', 'out.gcode', 'model.3mf'], {
      cwd: dir,
      stdio: 'ignore',
      env: { ...process.env, HOME: dir },
    })
    return performance.now() - started
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

async function sandboxedSlice(model: Uint8Array, config: string) {
  const started = performance.now()
  const result = await slice({ binary: env.PRUSA_SLICER, model, config, ...SLICE_LIMITS })
  if (!result.figures) throw new Error(result.error)
  return { ms: performance.now() - started, figures: result.figures }
}

async function slicingTimes(url: string): Promise<string[]> {
  const config = flatConfig()
  const rows: string[] = []
  for (const model of MODELS.filter((candidate) => !candidate.file)) {
    const model3mf = await threeMf(await openCustomer(url, model))
    directSlice(model3mf, config)
    const direct: number[] = []
    const sandboxed: number[] = []
    for (let i = 0; i < RUNS; i++) {
      direct.push(directSlice(model3mf, config))
      sandboxed.push((await sandboxedSlice(model3mf, config)).ms)
    }
    const { figures } = await sandboxedSlice(model3mf, config)
    rows.push(
      `| ${model.slug} | ${figures.layers} | ${Math.round(figures.printTimeSeconds / 60)} min | ` +
        `${ms(median(direct))} | ${ms(median(sandboxed))} | ${(median(sandboxed) / median(direct)).toFixed(2)}x |`,
    )
  }
  return rows
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

/** Sets a new value on the sliced session and waits until its slice runs (the final quality first, in the background). */
async function startSlice(customer: Customer, value: number): Promise<boolean> {
  await move(customer, SLICED.parameter, value)
  for (let waited = 0; waited < 60_000; waited += 200) {
    const { state } = (await objectInfo(customer)).slice
    if (state === 'slicing') return true
    if (state === 'done' || state === 'failed') return false
    await sleep(200)
  }
  return false
}

/** Another customer's slices in the background: each a new number of teeth of its gear. */
async function runningSlices(url: string): Promise<{ work: BackgroundWork; sliced: Customer }> {
  const sliced = await openCustomer(url, SLICED)
  // Its first slice (the defaults') done first: the idle moves ask for its state too.
  while (!['done', 'failed'].includes((await objectInfo(sliced)).slice.state)) await sleep(200)
  return {
    sliced,
    work: {
      start: (attempt) => startSlice(sliced, 60 + attempt),
      isRunning: async () => (await objectInfo(sliced)).slice.state === 'slicing',
    },
  }
}

export async function benchSlicing(): Promise<void> {
  console.log("\n## The slicer's quote: a slice's time per model, and a customer's next move while one runs")
  if (!isSlicerInstalled()) {
    console.log(`Skipped: this machine has no PrusaSlicer (${env.PRUSA_SLICER}).`)
    return
  }
  if (!hasProductionBuild('the server')) return
  const server = await startServer({ DATA_DIR: tempDir(), SEED_DEMO: 'true' })
  try {
    await settledMachine()
    const times = await slicingTimes(server.url)
    console.log(
      '\n| model (defaults) | layers | print time | direct prusa-slicer p50 | in its sandbox p50 | sandbox / direct |',
    )
    console.log('|---|---|---|---|---|---|')
    for (const row of times) console.log(row)
    console.log(
      `\n${RUNS} runs each after one untimed, the default profile (MK3S, 0.20mm QUALITY, Prusament PLA, supports on); ` +
        'the 3MF is the one the service slices (the final quality at the demo’s defaults).',
    )

    const { work, sliced } = await runningSlices(server.url)
    const next = await nextMoveWhile(server.url, MOVING, work)
    const after = `${(await objectInfo(sliced)).slice.state} ${(next.endedAfterMs / 1000).toFixed(1)} s later`
    console.log(
      '\n| moves of | idle server p50 | while a slice is under way p50 | slicing / idle (goal ≤ 1.1x) | moves counted | slices | the slice after the moves |',
    )
    console.log('|---|---|---|---|---|---|---|')
    console.log(
      `| ${MOVING.slug} | ${ms(next.idle)} | ${ms(next.busy)} | ${(next.busy / next.idle).toFixed(2)}x | ` +
        `${next.moves} | ${next.started} | ${after} |`,
    )
    console.log(
      `\nEach move a new value, back to back (PUT, GET the STL). While slicing: another customer's ${SLICED.slug} ` +
        'gets a new value, and once its slice runs (after the final quality, in the background) the moves go on; ' +
        'a move counts only when the slice was still under way after it. The slice stands still while customers build ' +
        '(pausesForCustomers) and ends after the moves.',
    )
  } finally {
    await stopServer(server)
  }
}
