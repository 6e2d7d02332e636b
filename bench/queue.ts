// The build queue on this machine's PostgreSQL: job pick-up, builds per second with one and two
// worker processes, and what a set→model costs through the queue against the same one built in
// this process. Run by bench/run.ts in a process of its own (it needs DATABASE_URL; the other
// benches run on the embedded database), with its demo content and admin.
import fs from 'node:fs'
import { startWorkerProcesses, stopWorkerProcesses } from './worker-processes'
import { busyShare, machineCpu, settledMachine } from '@/test/support/machine'
import { describe, ms } from './stats'
import { call } from '../test/support/api-client'

const { env } = await import('@/lib/env')
const { prepareDatabase } = await import('@/lib/set-up-database')
const { db } = await import('@/lib/db')
const { login } = await import('@/lib/auth/login')
const { ensureBuildWorker } = await import('@/lib/queue/build-worker')
const { blobStore } = await import('@/lib/storage/blob-store')
const { loadBuild } = await import('@/lib/builds/build-cache')
const { hostFonts } = await import('@/lib/cad/fonts/host-fonts')
const { runBuildJob } = await import('@/lib/builds/cad-job')
const { DONE_CHANNEL, runQueued, workerUtils } = await import('@/lib/queue/build-queue')
const { CAD_TASK } = await import('@/lib/queue/cad-tasks')
const { listen } = await import('@/lib/notifications')
type CadJob = import('@/lib/builds/cad-job').CadJob

const PICKUPS = 200
const BATCH = 48
const OVERHEAD_RUNS = 40
/** After each measured step: the engine that built warms its next instance, a CPU-heavy ~30 ms that belongs to neither side. */
const SETTLE_MS = 300

await prepareDatabase()
const source = fs.readFileSync('demo/box-with-lid/main.scad')
const { hash } = await blobStore.put(new Blob([source]).stream(), source.byteLength)
let serial = 0

/** A distinct, uncached build of the demo box (its width differs; a run id keeps reruns apart), at `fn` segments a circle. */
function boxJob(fn = 24): CadJob {
  const width = 40 + (serial++ % 50) + Math.random() / 1000
  return {
    kind: 'build',
    key: `bench-${process.pid}-${serial}`,
    cadType: 'openscad',
    cadVersion: '2025.07',
    mainFile: 'main.scad',
    files: [{ path: 'main.scad', blobHash: hash }],
    libraries: [],
    fontsHash: hostFonts().hash,
    limits: { timeLimitMs: 60_000, memoryLimitBytes: 2048 * 1024 * 1024 },
    values: { width },
    overrides: { $fn: fn },
  }
}

/** Each job its own session and configurator: the fair-share rules hold none of them back. */
function ownerOf(job: CadJob) {
  return { sessionId: crypto.randomUUID(), customerId: null, configuratorId: job.key, applicationId: null }
}

/** `count` worker processes, started and settled: workers live long, and their start-up is not what is timed. */
async function startWorkers(count: number) {
  const workers = await startWorkerProcesses(count)
  await settledMachine()
  return () => stopWorkerProcesses(workers)
}

/** Builds per second of a batch on `workers` worker processes, and how busy the machine's cores were meanwhile. */
async function buildsPerSecond(workers: number): Promise<{ rate: number; busy: number }> {
  const stop = await startWorkers(workers)
  // A few builds first, so that every worker's engine is warm before the clock starts.
  await Promise.all(
    Array.from({ length: 2 * workers }, () => boxJob()).map((job) => runQueued({ job, owner: ownerOf(job) })),
  )
  const cpu = machineCpu()
  const started = performance.now()
  await Promise.all(Array.from({ length: BATCH }, () => boxJob()).map((job) => runQueued({ job, owner: ownerOf(job) })))
  const seconds = (performance.now() - started) / 1000
  const busy = busyShare(cpu)
  await stop()
  return { rate: BATCH / seconds, busy }
}

/** A CPU-heavy build (the box at 384 segments a circle): the engine, not the queue, takes most of its time. */
const HEAVY_FN = 384
const PER_CONFIGURATOR = 4

/** Builds per second of PER_CONFIGURATOR heavy builds of each of `configurators` configurators at once, each its own session. */
async function scaleOut(workers: number, configurators: number): Promise<number> {
  const stop = await startWorkers(workers)
  const batch = () =>
    Array.from({ length: configurators * PER_CONFIGURATOR }, (_, i) => {
      const job = boxJob(HEAVY_FN)
      return runQueued({
        job,
        owner: { ...ownerOf(job), configuratorId: `scale-${configurators}-${i % configurators}` },
      })
    })
  await Promise.all(batch())
  const started = performance.now()
  await Promise.all(batch())
  const seconds = (performance.now() - started) / 1000
  await stop()
  return (configurators * PER_CONFIGURATOR) / seconds
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

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS))

/** Runs `run` as the service does without DATABASE_URL: its builds on this process's engine (the database stays). */
async function inProcess<T>(run: () => Promise<T>): Promise<T> {
  const url = env.DATABASE_URL
  env.DATABASE_URL = undefined
  try {
    return await run()
  } finally {
    env.DATABASE_URL = url
  }
}

/** The bare build of the demo box: add job, worker builds and stores, notice, load the mesh; against building and storing here. */
async function bareBuilds() {
  const samples = { queued: [] as number[], here: [] as number[] }
  const scheduling = { fairness: { turn: 'bench', exclusive: [], shared: [] } }
  for (let i = 0; i < OVERHEAD_RUNS + 1; i++) {
    // The first round warms both engines up.
    const keep = (list: number[], value: number) => i > 0 && list.push(value)
    const [a, b] = [boxJob(), boxJob()]
    await settle()
    let started = performance.now()
    await runQueued({ job: a, owner: ownerOf(a) })
    await loadBuild(a.key)
    keep(samples.queued, performance.now() - started)
    await settle()
    started = performance.now()
    await runBuildJob(b, scheduling)
    keep(samples.here, performance.now() - started)
  }
  return samples
}

/** Uncached set→model of a demo through the route handlers (PUT a value, GET the model as STL), each run on the queue and here. */
async function setToModel(
  token: string,
  demo: { name: string; parameter: string; values: (i: number) => [number, number] },
) {
  const configurator = await db.configurator.findFirstOrThrow({ where: { name: demo.name } })
  const session = async () =>
    (await (await call('createSession', { token, body: { configuratorId: configurator.id } })).json()).id as string
  const [onQueue, here] = [await session(), await session()]
  const setAndGet = async (id: string, value: number) => {
    const started = performance.now()
    const params = { sessionId: id }
    for (const response of [
      await call('setParameters', { token, params, body: { [demo.parameter]: { value } } }),
      await call('getModel', { token, params }),
    ]) {
      if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`)
      await response.arrayBuffer()
    }
    return performance.now() - started
  }
  const samples = { queued: [] as number[], here: [] as number[] }
  for (let i = 0; i < OVERHEAD_RUNS + 1; i++) {
    // The first round warms both sessions' paths up; every value is built once, by one of them.
    const keep = (list: number[], value: number) => i > 0 && list.push(value)
    const [queuedValue, hereValue] = demo.values(i)
    await settle()
    keep(samples.queued, await setAndGet(onQueue, queuedValue))
    await settle()
    keep(samples.here, await inProcess(() => setAndGet(here, hereValue)))
  }
  return samples
}

function compare({ queued, here }: { queued: number[]; here: number[] }): string {
  const [q, h] = [describe(queued).p50, describe(here).p50]
  return `through the queue p50 ${ms(q)} vs in this process p50 ${ms(h)}: ratio ${(q / h).toFixed(2)}x (${ms(q - h)} more)`
}

// This process is a web instance (no queue worker of its own; the worker processes get the
// cores) whose engine pool of one serves the in-process runs.
env.BUILD_WORKERS = 0
await ensureBuildWorker()
env.BUILD_WORKERS = 1
console.log('\n## Build queue (graphile-worker on PostgreSQL; worker processes of `npm run worker`, one build each)')
const pickUp = describe(await pickUps())
console.log(
  `- job pick-up and completion notice, idle worker (${PICKUPS} jobs): p50 ${ms(pickUp.p50)}, p95 ${ms(pickUp.p95)} (goal p50 ≤ 10 ms)`,
)
const [one, two] = [await buildsPerSecond(1), await buildsPerSecond(2)]
const cores = fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? '?'
const percent = (share: number) => `${Math.round(share * 100)} %`
console.log(
  `- distinct uncached builds of the ` +
    `demo box, batch of ${BATCH}: 1 worker ` +
    `${one.rate.toFixed(2)}/s, 2 workers ${two.rate.toFixed(2)}/s, ratio ` +
    `${(two.rate / one.rate).toFixed(2)}x (goal ≥ 0.95x); the ${cores} cores ` +
    `busy ${percent(one.busy)} with 1 worker, ${percent(two.busy)} with 2`,
)
for (const configurators of [1, 2]) {
  const [alone, both] = [await scaleOut(1, configurators), await scaleOut(2, configurators)]
  const goal = configurators === 1 ? '≥ 1.8x: a configurator alone takes every worker' : '≥ 1.8x'
  console.log(
    `- ${PER_CONFIGURATOR} heavy builds each of ` +
      `${configurators} configurator(s) at once: 1 worker ` +
      `${alone.toFixed(2)}/s, 2 ` +
      `workers ${both.toFixed(2)}/s, ` +
      `ratio ${(both / alone).toFixed(2)}x (goal ${goal})`,
  )
}
const stop = await startWorkers(1)
const { accessToken } = (
  await login({ email: env.ADMIN_EMAIL!, password: env.ADMIN_PASSWORD!, clientAddress: 'bench' })
).grant
console.log(`- uncached set→model (PUT a value, GET the model as STL), ${OVERHEAD_RUNS} runs each, goal ≤ 1.1x:`)
console.log(
  `  - box with lid: ${compare(await setToModel(accessToken, { name: 'Box with lid', parameter: 'width', values: (i) => [30 + i, 30.5 + i] }))}`,
)
console.log(
  `  - name tag: ${compare(await setToModel(accessToken, { name: 'Name tag', parameter: 'text_size', values: (i) => [5 + i * 0.3, 5.15 + i * 0.3] }))}`,
)
console.log(
  `  - spur gear: ${compare(await setToModel(accessToken, { name: 'Spur gear', parameter: 'thickness', values: (i) => [4 + i * 0.3, 4.15 + i * 0.3] }))}`,
)
console.log(
  `- the bare build of the box alone (add job, worker builds and stores, notice, load the mesh vs build and store here): ${compare(await bareBuilds())}`,
)
await stop()

// Prefetch on the queue: two worker slots, so that a prefetch candidate (never on the last free one) can run.
const stopBoth = await startWorkers(2)
const { benchDrag } = await import('./drag')
const demos = JSON.parse(fs.readFileSync('demo/demos.json', 'utf8')) as { slug: string; name: string }[]
const configurators = await db.configurator.findMany()
const ids = new Map(
  demos.map((demo) => [demo.slug, configurators.find((configurator) => configurator.name === demo.name)!.id]),
)
await benchDrag(ids, accessToken, 'PostgreSQL, builds on the queue with 2 `npm run worker` processes')
await stopBoth()
process.exit(0)
