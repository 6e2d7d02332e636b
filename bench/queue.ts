// The build queue on this machine's PostgreSQL: job pick-up, builds per second with one and two
// worker processes, and what a build costs through the queue against the same build here.
// Run by bench/run.ts in a process of its own (it needs DATABASE_URL; the other benches run on
// the embedded database).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { describe, ms } from './stats'

const { env } = await import('@/lib/env')
const { migrateDatabase } = await import('@/lib/prepare')
const { blobStore } = await import('@/lib/storage/blob-store')
const { loadBuild } = await import('@/lib/cad/build-cache')
const { hostFonts } = await import('@/lib/fonts/host-fonts')
const { runBuildJob } = await import('@/lib/cad/cad-job')
const { CAD_TASK, DONE_CHANNEL, runQueued, workerUtils } = await import('@/lib/queue/build-queue')
const { listen } = await import('@/lib/queue/notifications')
type CadJob = import('@/lib/cad/cad-job').CadJob

const PICKUPS = 200
const BATCH = 16
const OVERHEAD_RUNS = 10

await migrateDatabase()
const source = fs.readFileSync('demo/box-with-lid/main.scad')
const { hash } = await blobStore.put(new Blob([source]).stream(), source.byteLength)
let serial = 0

/** A distinct, uncached build of the demo box (its width differs; a run id keeps reruns apart). */
function boxJob(): CadJob {
  const width = 40 + (serial++ % 50) + Math.random() / 1000
  return {
    kind: 'build',
    key: `bench-${process.pid}-${serial}`,
    cadType: 'openscad',
    mainFile: 'main.scad',
    files: [{ path: 'main.scad', blobHash: hash }],
    libraries: [],
    fontsHash: hostFonts().hash,
    limits: { timeLimitMs: 60_000, memoryLimitBytes: 2048 * 1024 * 1024 },
    values: { width },
    overrides: { $fn: 24 },
  }
}

/** Each job its own session and configurator: the fair-share rules hold none of them back. */
function ownerOf(job: CadJob) {
  return { sessionId: crypto.randomUUID(), customerId: null, configuratorId: job.key, applicationId: null }
}

async function startWorkers(count: number) {
  const workers = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--import', 'tsx', 'worker.ts'], { env: { ...process.env, BUILD_WORKERS: '1' }, stdio: ['ignore', 'pipe', 'inherit'] }),
  )
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve) => {
          let output = ''
          worker.stdout.on('data', (chunk) => (output += chunk) && output.includes('running up to') && resolve())
        }),
    ),
  )
  return async () => {
    await Promise.all(workers.map((worker) => new Promise((resolve) => worker.on('exit', resolve).kill('SIGTERM'))))
  }
}

async function buildsPerSecond(workers: number): Promise<number> {
  const stop = await startWorkers(workers)
  // A few builds first, so that every worker's engine is warm before the clock starts.
  await Promise.all(Array.from({ length: 2 * workers }, () => boxJob()).map((job) => runQueued({ job, owner: ownerOf(job) })))
  const started = performance.now()
  await Promise.all(Array.from({ length: BATCH }, () => boxJob()).map((job) => runQueued({ job, owner: ownerOf(job) })))
  const seconds = (performance.now() - started) / 1000
  await stop()
  return BATCH / seconds
}

async function pickUps(): Promise<number[]> {
  const stop = await startWorkers(1)
  let notice: (() => void) | undefined
  // A job whose build is cached already: the worker's whole part is picking it up and saying so.
  const cached = boxJob()
  await runQueued({ job: cached, owner: ownerOf(cached) })
  await listen(DONE_CHANNEL, (payload) => (JSON.parse(payload) as { key: string }).key === cached.key && notice?.())
  const utils = await workerUtils()
  const samples: number[] = []
  for (let i = 0; i < PICKUPS; i++) {
    const done = new Promise<void>((resolve) => (notice = resolve))
    const started = performance.now()
    await utils.addJob(CAD_TASK, { job: cached, owner: ownerOf(cached) })
    await done
    samples.push(performance.now() - started)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  await stop()
  return samples
}

async function overhead(): Promise<{ queued: number[]; here: number[] }> {
  const stop = await startWorkers(1)
  const queued: number[] = []
  const here: number[] = []
  const scheduling = { fairness: { turn: 'bench', exclusive: [], shared: [] } }
  for (let i = 0; i < OVERHEAD_RUNS + 1; i++) {
    const [a, b] = [boxJob(), boxJob()]
    let started = performance.now()
    await runQueued({ job: a, owner: ownerOf(a) })
    await loadBuild(a.key)
    const queuedMs = performance.now() - started
    started = performance.now()
    await runBuildJob(b, scheduling)
    const hereMs = performance.now() - started
    // The first pair warms both engines up.
    if (i > 0) queued.push(queuedMs), here.push(hereMs)
  }
  await stop()
  return { queued, here }
}

// The whole machine's cores go to the worker processes; this process only builds in `overhead`.
env.BUILD_WORKERS = 1
console.log('\n## Build queue (graphile-worker on PostgreSQL; worker processes of `npm run worker`, one build each)')
const pickUp = describe(await pickUps())
console.log(`- job pick-up and completion notice, idle worker (${PICKUPS} jobs): p50 ${ms(pickUp.p50)}, p95 ${ms(pickUp.p95)} (goal p50 ≤ 10 ms)`)
const [one, two] = [await buildsPerSecond(1), await buildsPerSecond(2)]
console.log(`- distinct uncached builds of the demo box, batch of ${BATCH}: 1 worker ${one.toFixed(2)}/s, 2 workers ${two.toFixed(2)}/s, ratio ${(two / one).toFixed(2)}x (${fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? '?'} cores)`)
const { queued, here } = await overhead()
const [q, h] = [describe(queued), describe(here)]
console.log(`- uncached build through the queue (add job, worker builds and stores, notice, load) p50 ${ms(q.p50)} vs the same build in this process p50 ${ms(h.p50)}: ratio ${(q.p50 / h.p50).toFixed(2)}x (goal ≤ 1.1x)`)
process.exit(0)
