import { Logger, makeWorkerUtils, runMigrations, type WorkerUtils } from 'graphile-worker'
import { AppError } from '@/lib/api/errors'
import type { CadJob } from '@/lib/builds/cad-job'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { turnFlag } from '@/lib/queue/build-turns'
import { CAD_BACKGROUND_TASK, CAD_TASK } from '@/lib/queue/cad-tasks'
import { listen, notify, onReconnect } from '@/lib/notifications'
import { BEAT_MS, liveWorkers } from '@/lib/queue/worker-heartbeat'
import { logger } from '@/lib/log'
import { metrics } from '@/lib/metrics'
import { existingSingleton, processSingleton } from '@/lib/process-singleton'

// CAD runs as jobs on graphile-worker (PostgreSQL), for every process on one database. See
// docs/queue-choice.md for why this library, and docs/deploy.md for how the processes fit.

/** A worker says a job ended: `{key, outcome, message?}`. */
export const DONE_CHANNEL = 'paraform_cad_done'
/** A web instance says nobody waits for a build any more: the key. */
export const CANCEL_CHANNEL = 'paraform_cad_cancel'
/** graphile-worker runs lower numbers first. */
const BACKGROUND_PRIORITY = 10

/** Whose job it is, for the fair-share rules and the customer's build time. */
export interface JobOwner {
  sessionId: string
  /** The anonymous customer (all its sessions share one turn and one budget). */
  customerId: string | null
  configuratorId: string
  applicationId: string | null
  /** Work nobody waits for (a test drive): queued behind every other job. */
  background?: boolean
  /** A prefetch candidate ahead of the customer (background too): one at a time in its own queue, its time not counted. */
  prefetch?: boolean
  /** Print figures: one at a time in their own queue, the final quality's (background) in another. */
  print?: boolean
}

export interface CadJobPayload {
  job: CadJob
  owner: JobOwner
}

const LOGGED_LEVELS = new Set<string>(['error', 'warning'])

/** graphile-worker's log without its line per job: warnings and errors only. */
export const queueLogger = new Logger(() => (level, message) => {
  if (LOGGED_LEVELS.has(level)) logger.warn({ queueLevel: level }, `queue: ${message}`)
})

export type JobOutcome =
  | { key: string; outcome: 'done'; ran: boolean }
  | { key: string; outcome: 'cancelled' }
  | { key: string; outcome: 'failed'; message: string }

/** Keys a configurator or application may hold at most half of all workers' slots with. */
export function sharedFlags(owner: JobOwner): string[] {
  return [
    `configurator:${owner.configuratorId}`,
    ...(owner.applicationId ? [`application:${owner.applicationId}`] : []),
  ]
}

export function taskOf(owner: Pick<JobOwner, 'background'>): string {
  return owner.background ? CAD_BACKGROUND_TASK : CAD_TASK
}

/** The one-at-a-time key (queue) of work beside a session's own builds, which never holds their turn. */
export function laneOf(owner: Pick<JobOwner, 'prefetch' | 'print' | 'background'>): string | null {
  if (owner.prefetch) return 'prefetch'
  // The preview's figures, which the customer waits for, never wait behind the final quality's.
  if (owner.print) return owner.background ? 'final-print' : 'print'
  return null
}

/**
 * One at a time per anonymous customer (so per session too), else per session; candidates and
 * print figures in lanes of their own (lib/queue/build-turns.ts).
 */
export function turnOf(owner: JobOwner): string {
  const turn = owner.customerId ? `customer:${owner.customerId}` : `session:${owner.sessionId}`
  const lane = laneOf(owner)
  return lane ? `${lane}:${turn}` : turn
}

export function jobSpec(payload: CadJobPayload, jobKeyMode: 'unsafe_dedupe' | 'replace') {
  const { owner, job } = payload
  return {
    jobKey: job.key,
    jobKeyMode,
    flags: [turnFlag(turnOf(owner)), ...sharedFlags(owner)],
    maxAttempts: 5,
    priority: owner.background ? BACKGROUND_PRIORITY : 0,
  }
}

interface Waiter {
  key: string
  settle: (outcome: JobOutcome) => void
}

interface Queue {
  utils: Promise<WorkerUtils>
  waiters: Set<Waiter>
  settle: (outcome: JobOutcome) => void
  listening: Promise<void>
}

const QUEUE = 'buildQueue'

function queue(): Queue {
  return processSingleton(QUEUE, createQueue)
}

/**
 * Tells the waiters of this process how a job ended, before the notice through PostgreSQL reaches
 * them (and the other processes): a web instance's own build worker answers its customer without
 * that round trip. A waiter hears only the first of the two.
 */
export function settleHere(outcome: JobOutcome): void {
  existingSingleton<Queue>(QUEUE)?.settle(outcome)
}

function createQueue(): Queue {
  const waiters = new Set<Waiter>()
  const settle = (outcome: JobOutcome) =>
    waiters.forEach((waiter) => waiter.key === outcome.key && waiter.settle(outcome))
  const created: Queue = {
    utils: makeWorkerUtils({ connectionString: env.DATABASE_URL, maxPoolSize: 4, logger: queueLogger }),
    waiters,
    settle,
    listening: listen(DONE_CHANNEL, (payload) => settle(JSON.parse(payload) as JobOutcome)),
  }
  // Outcomes sent while the connection was down are lost: whatever got built meanwhile is cached.
  onReconnect(
    () =>
      void Promise.all(
        [...waiters].map(async ({ key }) => (await isCached(key)) && settle({ key, outcome: 'done', ran: false })),
      ),
  )
  return created
}

export function workerUtils(): Promise<WorkerUtils> {
  return queue().utils
}

export async function isCached(key: string): Promise<boolean> {
  return (await db.cacheEntry.count({ where: { key } })) > 0
}

/**
 * Runs `job` on the build queue and resolves once its result is in the cache: built by any
 * worker of any machine, once per key however many instances ask. True when the engine ran for
 * it, false when the result was cached already. An abort stops waiting and cancels the job for
 * everyone; those still waiting elsewhere ask for it again.
 */
export async function runQueued(payload: CadJobPayload, signal?: AbortSignal): Promise<boolean> {
  const { key } = payload.job
  const { utils, waiters, listening } = queue()
  await listening
  for (;;) {
    signal?.throwIfAborted()
    let waiter!: Waiter
    const ended = new Promise<JobOutcome>((resolve) => (waiter = { key, settle: resolve }))
    waiters.add(waiter)
    // A candidate given up is dropped only while nothing else claimed it; any other job, for everyone.
    const onAbort = () => void (payload.owner.prefetch ? dropCandidate(key) : cancel(key)).catch(() => {})
    const orphaned = watchWorkers(key)
    try {
      // Listening before adding: the outcome is not missed. The worker looks in the cache first
      // (a caller asks after missing it); nothing else is asked of the database before the insert,
      // where it would add to every build's time.
      let job = await (await utils).addJob(taskOf(payload.owner), payload, jobSpec(payload, 'unsafe_dedupe'))
      // Joined a job waiting in the background (a prefetch candidate, a preparation): it becomes this one, in front.
      if (!payload.owner.background && job.priority !== 0 && !job.locked_at)
        job = await (await utils).addJob(CAD_TASK, payload, jobSpec(payload, 'replace'))
      // A job out of attempts (its workers killed again and again) would hold the key forever.
      if (job.attempts >= job.max_attempts && !job.locked_at) {
        await removeJob(key)
        continue
      }
      // Joined a running job: it may have stored its build and said so before this listened.
      if (job.locked_at && (await isCached(key))) return false
      signal?.addEventListener('abort', onAbort, { once: true })
      const outcome = await Promise.race([ended, orphaned.promise, ...(signal ? [abortion(signal)] : [])])
      if (outcome.outcome === 'done') return outcome.ran
      if (outcome.outcome === 'failed')
        throw new AppError('service_unavailable', `The build could not run: ${outcome.message}`)
    } finally {
      waiters.delete(waiter)
      signal?.removeEventListener('abort', onAbort)
      orphaned.stop()
    }
  }
}

/** Rejects, taking the job out of the queue, once no live worker is left to run it: looked at every BEAT_MS while waiting. */
function watchWorkers(key: string): { promise: Promise<never>; stop: () => void } {
  let reject!: (error: Error) => void
  const promise = new Promise<never>((_, rejectWith) => (reject = rejectWith))
  promise.catch(() => {})
  const timer = setInterval(
    () =>
      void liveWorkers()
        .then(async (workers) => {
          if (workers.length > 0) return
          reject(new AppError('service_unavailable', 'No build worker is running; start one with `npm run worker`'))
          await cancel(key)
        })
        .catch(() => {}),
    BEAT_MS,
  )
  return { promise, stop: () => clearInterval(timer) }
}

function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error)
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })
  })
}

/** graphile-worker's own removal: a waiting job is deleted, a running one loses its key and retries. */
async function removeJob(key: string): Promise<void> {
  await (await workerUtils()).withPgClient((client) => client.query('SELECT graphile_worker.remove_job($1)', [key]))
}

/** Takes a candidate out of the queue while it waits in the background; a running or claimed one goes on. */
async function dropCandidate(key: string): Promise<void> {
  const removed = await (
    await workerUtils()
  ).withPgClient((client) =>
    client.query(
      'SELECT graphile_worker.remove_job(key) FROM graphile_worker.jobs WHERE key = $1 AND priority = $2 AND locked_at IS NULL',
      [key, BACKGROUND_PRIORITY],
    ),
  )
  // Claimed just before it was removed: who claimed it asks again.
  if (removed.rowCount) await notify(DONE_CHANNEL, JSON.stringify({ key, outcome: 'cancelled' } satisfies JobOutcome))
}

/** Takes a waiting job out of the queue and tells the worker of a running one to stop it. */
async function cancel(key: string): Promise<void> {
  await removeJob(key)
  await notify(CANCEL_CHANNEL, key)
  await notify(DONE_CHANNEL, JSON.stringify({ key, outcome: 'cancelled' } satisfies JobOutcome))
}

/** Creates or updates graphile-worker's tables (its own schema, graphile_worker). */
export function migrateQueue(): Promise<void> {
  return runMigrations({ connectionString: env.DATABASE_URL, logger: queueLogger })
}

/** The shared queue's waiting jobs as a metric, read at each scrape. */
export function measureQueueDepth(): void {
  metrics.collectors.push(async () => metrics.queueDepth.set({ queue: 'postgres' }, (await queueCounts()).queued))
}

/** Queued and running CAD jobs, for health. */
export async function queueCounts(): Promise<{ queued: number; running: number }> {
  const [row] = await db.$queryRaw<{ queued: bigint; running: bigint }[]>`
    SELECT count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts) AS queued, count(*) FILTER (WHERE locked_at IS NOT NULL) AS running
    FROM graphile_worker.jobs WHERE task_identifier IN (${CAD_TASK}, ${CAD_BACKGROUND_TASK})`
  return { queued: Number(row?.queued ?? 0), running: Number(row?.running ?? 0) }
}
