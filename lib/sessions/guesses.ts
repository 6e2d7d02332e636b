import { DroppedError } from '@/lib/cad/worker-pool'

// The guesses being built for each session (lib/sessions/speculation.ts), kept apart so that
// setting values can drop them without depending on how they are made.

const bySession = new Map<string, AbortController>()

/** Replaces the session's guesses with `build`, which stops at the signal's abort. */
export function startGuesses(sessionId: string, build: (signal: AbortSignal) => Promise<void>): void {
  dropGuesses(sessionId)
  const controller = new AbortController()
  bySession.set(sessionId, controller)
  void build(controller.signal)
    // A guess has nobody to answer: dropped (no free worker, superseded) or failed, it is forgotten.
    .catch(() => {})
    .finally(() => bySession.get(sessionId) === controller && bySession.delete(sessionId))
}

/** Drops the session's guesses that have not started; one being built goes on. */
export function dropGuesses(sessionId: string): void {
  bySession.get(sessionId)?.abort(new DroppedError())
  bySession.delete(sessionId)
}
