import { EventEmitter } from 'node:events'
import { run, type Task, type WorkerEvents } from 'graphile-worker'
import { limits } from '@/lib/api/rate-limit'
import { readSource, runCadJob } from '@/lib/cad/cad-job'
import { env } from '@/lib/env'
import { CAD_BACKGROUND_TASK, CAD_TASK, CANCEL_CHANNEL, type CadJobPayload, DONE_CHANNEL, isCached, sharedFlags, type JobOutcome, queueLogger, workerUtils } from '@/lib/queue/build-queue'
import { listen, notify } from '@/lib/queue/notifications'
import { onShutdown } from '@/lib/shutdown'
import { BEAT_MS, fullSharedFlags, Heartbeat, takeDeadWorkers } from '@/lib/queue/worker-heartbeat'

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
  const send = (outcome: JobOutcome) => notify(DONE_CHANNEL, JSON.stringify(outcome))

  const cad: Task = async (payload, helpers) => {
    const { job, owner } = payload as CadJobPayload
    // Built meanwhile (its asker missed the cache just before): no need of the files then.
    const source = readSource(job)
    source.catch(() => {})
    if (await isCached(job.key)) return send({ key: job.key, outcome: 'done', ran: false })
    const controller = new AbortController()
    const stop = () => controller.abort(helpers.abortSignal.reason)
    helpers.abortSignal.addEventListener('abort', stop, { once: true })
    running.set(job.key, controller)
    let startedAt: number | undefined
    // Counted once, before the asker hears: a request that got its answer had its build time counted.
    const countTime = async () => {
      if (!owner.customerId || startedAt === undefined || owner.speculative) return
      const elapsed = Math.ceil(performance.now() - startedAt)
      startedAt = undefined
      await limits.customerBuildTime.add(owner.customerId, elapsed).catch(() => {})
    }
    // Not awaited: the build need not wait for the row, which the next beat writes anyway.
    void heartbeat.started({ key: job.key, flags: sharedFlags(owner), background: owner.background }).catch(() => {})
    try {
      const fairness = { turn: job.key, exclusive: [], shared: [], background: owner.background }
      const scheduling = { fairness, signal: controller.signal, onStart: () => (startedAt = performance.now()) }
      await runCadJob(job, scheduling, source)
      await countTime()
      // Off the heartbeat before the asker hears: its next build finds the configurator's share free.
      await heartbeat.ended(job.key).catch(() => {})
      await send({ key: job.key, outcome: 'done', ran: true })
    } catch (error) {
      await countTime()
      // Stopping: the job goes back to the queue for another worker.
      if (helpers.abortSignal.aborted) throw error
      await send(controller.signal.aborted ? { key: job.key, outcome: 'cancelled' } : { key: job.key, outcome: 'failed', message: (error as Error).message })
    } finally {
      helpers.abortSignal.removeEventListener('abort', stop)
      running.delete(job.key)
      // Idle workers hear of the freed slot and turn when graphile-worker marks the job done (migrateQueue).
      await heartbeat.ended(job.key).catch(() => {})
    }
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
      forbiddenFlags: fullSharedFlags,
      events,
      logger: queueLogger,
    })
  const runners = await Promise.all([runOn(CAD_TASK, slots), runOn(CAD_BACKGROUND_TASK, 1)])

  let lastCleanup = Date.now()
  const reaper = setInterval(
    () =>
      void (async () => {
        const utils = await workerUtils()
        const dead = await takeDeadWorkers()
        // Unlocking their queues tells idle workers (migrateQueue).
        if (dead.length > 0) await utils.forceUnlockWorkers(dead)
        if (Date.now() - lastCleanup < QUEUE_CLEANUP_MS) return
        lastCleanup = Date.now()
        // Each session and customer is a named queue; drop those no job uses any more.
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

const globalForWorker = globalThis as unknown as { paraformBuildWorker?: Promise<BuildWorker | null> }

/**
 * This process's build worker (BUILD_WORKERS slots), started on first call and stopped with the
 * process (lib/shutdown.ts); none when BUILD_WORKERS is 0.
 */
export function ensureBuildWorker(): Promise<BuildWorker | null> {
  globalForWorker.paraformBuildWorker ??= (async () => {
    if (env.BUILD_WORKERS === 0) return null
    const worker = await startBuildWorker(env.BUILD_WORKERS)
    onShutdown(() => worker.stop())
    return worker
  })()
  return globalForWorker.paraformBuildWorker
}
