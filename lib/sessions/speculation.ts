import { limits } from '@/lib/api/rate-limit'
import { startGuesses } from '@/lib/sessions/guesses'
import { buildValues, readBuildSource } from '@/lib/sessions/model-builds'
import { storedValuesOf, validateValues } from '@/lib/sessions/parameter-values'
import type { LoadedSession } from '@/lib/sessions/sessions'

// While a customer drags a slider, the page names the values it passes and the likely release
// values (lib/client/speculation.ts). Their models are built as guesses: in the background,
// one at a time per customer, never on the last free worker, never counted against the
// customer's build time, never stored as the session's values. When the customer lets go on one
// of them, its model is cached already or being built. Each prefetch replaces the session's
// guesses not yet started, and so does setting values.

/** Validates the guesses (422 naming each bad key, as setting them would) and starts building them, likeliest first. */
export async function prefetchModels(session: LoadedSession, candidates: Record<string, { value: unknown }>[]): Promise<{ candidates: number }> {
  const source = await readBuildSource(session)
  const fileIds = new Set(source.inputs.sessionFileNames.keys())
  const changes = candidates.map((candidate) => validateValues(source.definitions, candidate, fileIds))
  // A customer out of build time gets 429 for a guess too: its release could not build either.
  if (session.identityId) await limits.customerBuildTime.check(session.identityId)
  const stored = storedValuesOf(session.values)
  const guessing = { ...source, session: { ...source.session, speculative: true } }
  startGuesses(session.id, async (signal) => {
    for (const change of changes) {
      signal.throwIfAborted()
      await buildValues(guessing, { ...stored, ...change }, signal)
    }
  })
  return { candidates: changes.length }
}
