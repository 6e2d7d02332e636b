import { EventEmitter } from 'node:events'
import { type JobHelpers, run, type Task, type WorkerEvents } from 'graphile-worker'
import { limits } from '@/lib/api/rate-limit'
import { readSource, runCadJob } from '@/lib/builds/cad-job'
import type { ModelSource } from '@/lib/cad/engine'
import { env } from '@/lib/env'
import {
  CANCEL_CHANNEL,
  type CadJobPayload,
  DONE_CHANNEL,
  isCached,
  type JobOutcome,
  jobSpec,
  queueLogger,
  settleHere,
  sharedFlags,
  taskOf,
  turnOf,
  workerUtils,
} from '@/lib/queue/build-queue'
import { freeTurn, takeTurn, wakeIdleWorkers } from '@/lib/queue/build-turns'
import { CAD_BACKGROUND_TASK, CAD_TASK } from '@/lib/queue/cad-tasks'
import { listen, notify } from '@/lib/notifications'
import { onShutdown } from '@/lib/shutdown'
import { BEAT_MS, fullSharedFlags, Heartbeat, takeDeadWorkers } from '@/lib/queue/worker-heartbeat'
import { processSingleton } from '@/lib/process-singleton'

/** How long a stopping worker lets its running builds finish before it hands them back to the queue. */
const FINISH_ON_STOP_MS = 20_000
const QUEUE_CLEANUP_MS = 10 * 60_000

class CancelledError extends Error {
  constructor() {
    super('cancelled: nobody waits for this build any more')
  }
}

export interface BuildWorker {
  /** Its heartbeat row's id, as GET /api/health lists it. */
  id: string
  /** Finishes running builds (or hands them back after FINISH_ON_STOP_MS), then leaves. */
  stop(): Promise<void>
}

/**
 * Runs CAD jobs from the queue, `slots` at a time, on this process's engine workers, and
 * background jobs one at a time on its low-priority one: graphile-worker picks them (one per
 * session or customer at a time, shared flags over their half held back); this adds the
 * heartbeat, unlocking dead workers' jobs, and cancelling on request.
 */
export async function startBuildWorker(slots: number): Promise<BuildWorker> {
  const heartbeat = new Heartbeat(slots)
  await heartbeat.start()
  const running = new Map<string, AbortController>()
  await listen(CANCEL_CHANNEL, (key) => running.get(key)?.abort(new CancelledError()))
  const send = (outcome: JobOutcome) => {
    settleHere(outcome)
    return notify(DONE_CHANNEL, JSON.stringify(outcome))
  }

  /** Builds the job; throws when this worker stops, so that the job goes back to the queue for another. */
  const build = async (
    { job, owner }: CadJobPayload,
    source: Promise<ModelSource>,
    helpers: JobHelpers,
  ): Promise<JobOutcome> => {
    const controller = new AbortController()
    const stop = () => controller.abort(helpers.abortSignal.reason)
    helpers.abortSignal.addEventListener('abort', stop, { once: true })
    running.set(job.key, controller)
    let startedAt: number | undefined
    try {
      const fairness = { turn: job.key, exclusive: [], shared: [], background: owner.background }
      await runCadJob(
        job,
        { fairness, signal: controller.signal, onStart: () => (startedAt = performance.now()) },
        source,
        helpers.job.created_at.getTime(),
      )
      return { key: job.key, outcome: 'done', ran: true }
    } catch (error) {
      if (helpers.abortSignal.aborted) throw error
      return controller.signal.aborted
        ? { key: job.key, outcome: 'cancelled' }
        : { key: job.key, outcome: 'failed', message: (error as Error).message }
    } finally {
      helpers.abortSignal.removeEventListener('abort', stop)
      running.delete(job.key)
      // All before the asker hears, and each its own statement, so at once: a request that got its
      // answer had its build time counted, and its next build finds this slot and its turn free.
      const buildMs = startedAt === undefined ? undefined : Math.ceil(performance.now() - startedAt)
      await Promise.all([
        owner.customerId &&
          buildMs !== undefined &&
          !owner.prefetch &&
          limits.customerBuildTime.add(owner.customerId, buildMs).catch(() => {}),
        heartbeat.ended(job.key).catch(() => {}),
        freeTurn(turnOf(owner), job.key).catch(() => {}),
      ])
    }
  }

  const cad: Task = async (payload, helpers) => {
    const { job, owner } = payload as CadJobPayload
    // Built meanwhile (its asker missed the cache just before): no need of the files then.
    const source = readSource(job)
    source.catch(() => {})
    if (await isCached(job.key)) return send({ key: job.key, outcome: 'done', ran: false })
    const turn = turnOf(owner)
    // Another job of the turn started first: this one waits in the queue again (a new job under
    // its key; this one ends), held back by the turn's flag until that one frees it.
    const waitAgain = async () =>
      void (await (await workerUtils()).addJob(taskOf(owner), payload, jobSpec(payload as CadJobPayload, 'replace')))
    if (!(await takeTurn(turn, job.key, heartbeat.id))) return waitAgain()
    // Its configurator's or application's share filled up since the job was picked: it waits, held back by the share's flag.
    if (
      !(await heartbeat
        .admit({ key: job.key, flags: sharedFlags(owner), background: owner.background })
        .catch(() => false))
    ) {
      await freeTurn(turn, job.key).catch(() => {})
      return waitAgain()
    }
    await send(await build(payload as CadJobPayload, source, helpers))
  }

  const events = new EventEmitter() as WorkerEvents
  // graphile-worker 0.17 locks jobs by its pool's id.
  events.on('pool:create', ({ workerPool }) => heartbeat.addQueueId(workerPool.id))
  const runOn = (task: string, concurrency: number) =>
    run({
      connectionString: env.DATABASE_URL,
      concurrency,
      noHandleSignals: true,
      pollInterval: 1000,
      gracefulShutdownAbortTimeout: FINISH_ON_STOP_MS,
      taskList: { [task]: cad },
      forbiddenFlags: () => fullSharedFlags({ background: task === CAD_BACKGROUND_TASK }),
      events,
      logger: queueLogger,
    })
  const runners = await Promise.all([runOn(CAD_TASK, slots), runOn(CAD_BACKGROUND_TASK, 1)])

  let lastCleanup = 0
  const reaper = setInterval(
    () =>
      void (async () => {
        const utils = await workerUtils()
        const dead = await takeDeadWorkers()
        if (dead.length > 0) {
          await utils.forceUnlockWorkers(dead)
          await wakeIdleWorkers()
        }
        if (Date.now() - lastCleanup < QUEUE_CLEANUP_MS) return
        lastCleanup = Date.now()
        // Named queues of earlier versions: graphile-worker locks every one of them in each look for a job.
        await utils.cleanup({ tasks: ['GC_JOB_QUEUES'] })
      })().catch(() => {}),
    BEAT_MS,
  )
  reaper.unref()

  return {
    id: heartbeat.id,
    async stop() {
      clearInterval(reaper)
      await Promise.all(runners.map((runner) => runner.stop()))
      await heartbeat.stop()
    },
  }
}

/**
 * This process's build worker (BUILD_WORKERS slots), started on first call and stopped with the
 * process (lib/shutdown.ts); none when BUILD_WORKERS is 0.
 */
export function ensureBuildWorker(): Promise<BuildWorker | null> {
  return processSingleton('buildWorker', async () => {
    if (env.BUILD_WORKERS === 0) return null
    const worker = await startBuildWorker(env.BUILD_WORKERS)
    onShutdown(() => worker.stop())
    return worker
  })
}
