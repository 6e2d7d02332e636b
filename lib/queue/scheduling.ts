import { AppError } from '@/lib/api/errors'
import { limits } from '@/lib/api/rate-limit'
import type { CadJob } from '@/lib/builds/cad-job'
import type { Scheduling } from '@/lib/cad/worker-pool'
import { env } from '@/lib/env'
import { type JobOwner, laneOf, runQueued } from '@/lib/queue/build-queue'
import { ensureBuildWorker } from '@/lib/queue/build-worker'

/** Whose builds they are: a session's (a loaded session is one), or a configurator's own when it is prepared. */
export interface BuildOwner {
  /** The session's id, or the configurator's for its own builds. */
  id: string
  /** The anonymous customer: all its sessions share one turn and one budget. */
  identityId: string | null
  configuratorId: string
  applicationId: string | null
  /** Work nobody waits for (a test drive, a designer's draft), behind everyone's builds. */
  background?: boolean
  /**
   * A prefetch candidate, values the customer is about to set (lib/sessions/prefetch.ts): background
   * work with its own one-at-a-time key, so it never holds the session's or the customer's turn
   * and its time is not counted against the customer. In this process it runs only when a worker
   * takes it at once.
   */
  prefetch?: boolean
  /**
   * Print figures of the session's model (objectinfo's `print`: closed parts): with its own
   * one-at-a-time key, so the customer's next build never waits behind it. The preview's are
   * waited for, as the model is; the final quality's, built once the customer pauses, are
   * background work too. Its time is counted.
   */
  print?: boolean
}

/**
 * How an owner's CAD runs share this process's workers: one at a time per session and per
 * anonymous customer (all sessions of one identity), at most half of the workers per
 * application and per configurator while others wait, and turns taken between customers (or
 * sessions, for the owner's and the shop's server's). The build queue keeps the same rules
 * across machines (lib/queue).
 */
export function schedulingOf(owner: BuildOwner, signal?: AbortSignal): Scheduling {
  const customer = owner.identityId ? `customer:${owner.identityId}` : null
  const sessionKey = `owner:${owner.id}`
  const lane = laneOf(owner)
  if (lane) {
    const key = `${lane}:${customer ?? sessionKey}`
    return {
      fairness: { turn: key, exclusive: [key], shared: sharedKeys(owner), background: isBackgroundWork(owner) },
      signal,
      dropUnlessIdle: owner.prefetch,
    }
  }
  return {
    fairness: {
      turn: customer ?? sessionKey,
      exclusive: customer ? [sessionKey, customer] : [sessionKey],
      shared: sharedKeys(owner),
      background: owner.background,
    },
    signal,
  }
}

/**
 * Whether giving up on a build of the owner may stop it. A candidate in this process starts at
 * once or not at all: stopping it would cost its worker and throw away a model that is almost
 * there. On the build queue a candidate given up is dropped while it waits.
 */
export function mayStop(owner: BuildOwner): boolean {
  return !owner.prefetch || Boolean(env.DATABASE_URL)
}

/** Whether the owner's CAD runs are work nobody waits for (a test drive, a candidate, the final quality's print figures). */
export function isBackgroundWork(owner: BuildOwner): boolean {
  return Boolean(owner.background || owner.prefetch)
}

function sharedKeys(owner: BuildOwner): string[] {
  return [
    `configurator:${owner.configuratorId}`,
    ...(owner.applicationId ? [`application:${owner.applicationId}`] : []),
  ]
}

function jobOwnerOf(owner: BuildOwner): JobOwner {
  const { id: sessionId, identityId: customerId, configuratorId, applicationId, prefetch, print } = owner
  return {
    sessionId,
    customerId,
    configuratorId,
    applicationId,
    background: isBackgroundWork(owner),
    prefetch,
    print,
  }
}

interface OwnedJob<T extends { source: string }> {
  job: CadJob
  /** The `source` of a result the engine ran for. */
  ranSource: T['source']
  /** Runs the job on this process's workers and stores its result. */
  run: (job: CadJob, scheduling: Scheduling) => Promise<T>
  /** The job's result once a worker stored it: from memory when this process's worker built it. */
  load: (key: string) => Promise<T | null>
}

/**
 * Runs a CAD job of the owner: on the build queue when the database is PostgreSQL, where any
 * worker of any machine may take it, else on this process's workers. An anonymous customer's
 * time on them counts against its budget (CUSTOMER_BUILD_SECONDS a window): once used up, 429
 * until the window ends. Cancelled and timed-out builds count for the time they ran; candidates
 * (prefetch) do not count.
 */
export async function runOwnedJob<T extends { source: string }>(
  owner: BuildOwner,
  { job, ranSource, run, load }: OwnedJob<T>,
  signal?: AbortSignal,
  foreground?: Promise<void>,
): Promise<T> {
  const customer = owner.identityId
  // Awaited only when it asks the database: the build reaches its worker before the session's write runs.
  const checking = customer ? limits.customerBuildTime.check(customer) : undefined
  if (checking) await checking
  if (env.DATABASE_URL) {
    await ensureBuildWorker()
    const ran = await runQueued({ job, owner: jobOwnerOf(owner) }, signal)
    const result = await load(job.key)
    if (!result)
      throw new AppError('service_unavailable', 'The build finished but its result left the cache at once; try again')
    return ran ? { ...result, source: ranSource } : result
  }
  let startedAt: number | undefined
  try {
    return await run(job, {
      ...schedulingOf(owner, signal),
      foreground,
      onStart: () => (startedAt = performance.now()),
    })
  } finally {
    // Counted after the answer: the model does not wait for its bill.
    if (customer && startedAt !== undefined && !owner.prefetch)
      limits.customerBuildTime.addAfterAnswer(customer, Math.ceil(performance.now() - startedAt))
  }
}
