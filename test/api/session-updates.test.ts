import { describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { updateSession } from '@/lib/sessions/session-updates'
import { openSession } from '@/test/fixtures'

// The update protocol on the real database and notifications, with builds that do as the test
// says: one that runs until it is cancelled, one that fails.

/** A build that runs until cancelled the first time, and succeeds after that; and its calls. */
function buildUntilCancelled() {
  const calls: Record<string, unknown>[] = []
  let started!: () => void
  const firstStarted = new Promise<void>((resolve) => (started = resolve))
  const build = async (values: Record<string, unknown>, signal: AbortSignal) => {
    calls.push(values)
    if (calls.length > 1) return
    started()
    await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }))
  }
  return { build, calls, firstStarted }
}

async function storedRow(sessionId: string) {
  return db.configSession.findUniqueOrThrow({ where: { id: sessionId }, select: { values: true, pendingValues: true, version: true, storedVersion: true } })
}

describe('session updates', () => {
  it('cancel the older build and answer both requests with what the newer one stored', async () => {
    const { session } = await openSession('width = 10; // [1:100]\ndepth = 10; // [1:100]\ncube([width, depth, 1]);\n')
    const older = buildUntilCancelled()
    const olderUpdate = updateSession(session.id, { changes: { width: 20 }, build: older.build })
    await older.firstStarted
    const newer = await updateSession(session.id, { changes: { depth: 5 }, build: async () => {} })

    expect(newer).toEqual({ width: 20, depth: 5 })
    expect(await olderUpdate).toEqual(newer)
    expect(older.calls).toHaveLength(1)
    expect(await storedRow(session.id)).toEqual({ values: newer, pendingValues: {}, version: 2, storedVersion: 2 })
  })

  it("carry on with the older request when the newer one fails, without the failed one's changes", async () => {
    const { session } = await openSession('width = 10; // [1:100]\ndepth = 10; // [1:100]\ncube([width, depth, 1]);\n')
    const older = buildUntilCancelled()
    const olderUpdate = updateSession(session.id, { changes: { width: 20 }, build: older.build })
    await older.firstStarted
    const failed = updateSession(session.id, {
      changes: { depth: 5 },
      build: async () => {
        throw new Error('the engine went away')
      },
    })

    await expect(failed).rejects.toThrow('the engine went away')
    expect(await olderUpdate).toEqual({ width: 20 })
    expect(older.calls).toEqual([{ width: 20 }, { width: 20 }])
    expect(await storedRow(session.id)).toEqual({ values: { width: 20 }, pendingValues: {}, version: 3, storedVersion: 3 })
  })
})
