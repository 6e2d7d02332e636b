import { limits } from '@/lib/api/rate-limit'
import type { Scheduling } from '@/lib/cad/worker-pool'
import type { LoadedSession } from '@/lib/sessions/sessions'

/**
 * How a session's CAD runs share the workers: one at a time per session and per anonymous
 * customer (all sessions of one identity), at most half of the workers per application and
 * per configurator while others wait, and turns taken between customers (or sessions, for the
 * owner's and the shop's server's).
 */
export function schedulingOf(session: LoadedSession, signal?: AbortSignal): Scheduling {
  const customer = session.identityId ? `customer:${session.identityId}` : null
  const sessionKey = `session:${session.id}`
  return {
    fairness: {
      turn: customer ?? sessionKey,
      exclusive: customer ? [sessionKey, customer] : [sessionKey],
      shared: [`configurator:${session.configuratorId}`, ...(session.applicationId ? [`application:${session.applicationId}`] : [])],
    },
    signal,
  }
}

/**
 * Runs a build of the session on the shared workers. An anonymous customer's time on them
 * counts against its budget (CUSTOMER_BUILD_SECONDS a window): once used up, 429 until the
 * window ends. Cancelled and timed-out builds count for the time they ran.
 */
export async function runSessionBuild<T>(session: LoadedSession, signal: AbortSignal, build: (scheduling: Scheduling) => Promise<T>): Promise<T> {
  const customer = session.identityId
  if (customer) await limits.customerBuildTime.check(customer)
  let startedAt: number | undefined
  try {
    return await build({ ...schedulingOf(session, signal), onStart: () => (startedAt = performance.now()) })
  } finally {
    if (customer && startedAt !== undefined) await limits.customerBuildTime.add(customer, Math.ceil(performance.now() - startedAt))
  }
}
