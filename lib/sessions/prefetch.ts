import { limits } from '@/lib/api/rate-limit'
import { DroppedError } from '@/lib/cad/worker-pool'
import { buildValues, readBuildSource } from '@/lib/sessions/model-builds'
import { validateValues } from '@/lib/sessions/parameter-values'
import type { LoadedSession } from '@/lib/sessions/sessions'

// While a customer drags a slider, the page names the values it passes and the likely release
// values (lib/client/prefetch.ts). Their models are built as candidates: in the background,
// one at a time per customer, never on the last free worker, never counted against the
// customer's build time, never stored as the session's values. When the customer lets go on one
// of them, its model is cached already or being built. Each prefetch replaces the session's
// candidates not yet started, and so does setting values.

/** Validates the candidates (422 naming each bad key, as setting them would) and starts building them, likeliest first. */
export async function prefetchModels(
  session: LoadedSession,
  candidates: Record<string, { value: unknown }>[],
): Promise<{ candidates: number }> {
  const source = await readBuildSource(session)
  const fileIds = new Set(source.inputs.sessionFileNames.keys())
  const changes = candidates.map((candidate) => validateValues(source.definitions, candidate, fileIds))
  // A customer out of build time gets 429 for a candidate too: its release could not build either.
  if (session.identityId) await limits.customerBuildTime.check(session.identityId)
  const prefetching = { ...source, session: { ...source.session, prefetch: true } }
  startCandidates(session.id, async (signal) => {
    for (const change of changes) {
      signal.throwIfAborted()
      await buildValues(prefetching, { ...session.values, ...change }, signal)
    }
  })
  return { candidates: changes.length }
}

// The candidates being built for each session; setting values drops those not yet started.
const bySession = new Map<string, AbortController>()

/** Replaces the session's candidates with `build`, which stops at the signal's abort. */
export function startCandidates(sessionId: string, build: (signal: AbortSignal) => Promise<void>): void {
  dropCandidates(sessionId)
  const controller = new AbortController()
  bySession.set(sessionId, controller)
  void build(controller.signal)
    // A candidate has nobody to answer: dropped (no free worker, superseded) or failed, it is forgotten.
    .catch(() => {})
    .finally(() => bySession.get(sessionId) === controller && bySession.delete(sessionId))
}

/** Drops the session's candidates that have not started; one being built goes on. */
export function dropCandidates(sessionId: string): void {
  bySession.get(sessionId)?.abort(new DroppedError())
  bySession.delete(sessionId)
}
