import { describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { updateSession } from '@/lib/sessions/session-updates'
import { openSession } from '@/test/support/fixtures'

// The update protocol on the real database and notifications, with builds that do as the test
// says: one that runs until it is stopped, one that fails.

/** A build that runs until its signal aborts; what stopped it, once it was. */
function buildUntilStopped() {
  let started!: () => void
  const begun = new Promise<void>((resolve) => (started = resolve))
  let stopped!: (reason: unknown) => void
  const reason = new Promise<unknown>((resolve) => (stopped = resolve))
  const build = (_values: unknown, signal: AbortSignal) => {
    started()
    return new Promise<void>((_, reject) =>
      signal.addEventListener(
        'abort',
        () => {
          stopped(signal.reason)
          reject(signal.reason as Error)
        },
        { once: true },
      ),
    )
  }
  return { build, begun, reason }
}

async function storedRow(sessionId: string) {
  return db.configSession.findUniqueOrThrow({ where: { id: sessionId }, select: { values: true, version: true } })
}

const MODEL = 'width = 10; // [1:100]\ndepth = 10; // [1:100]\ncube([width, depth, 1]);\n'

describe('session updates', () => {
  it('store the values before their build ends, and a newer update stops the older build', async () => {
    const { session } = await openSession(MODEL)
    const older = buildUntilStopped()
    expect(await updateSession(session.id, { current: {}, changes: { width: 20 }, build: older.build })).toEqual({
      width: 20,
    })
    await older.begun
    expect(await storedRow(session.id)).toEqual({ values: { width: 20 }, version: 1 })

    const built: unknown[] = []
    const newer = await updateSession(session.id, {
      current: { width: 20 },
      changes: { depth: 5 },
      build: async (values) => void built.push(values),
    })

    expect(newer).toEqual({ width: 20, depth: 5 })
    expect(String(await older.reason)).toMatch(/superseded/)
    expect(built).toEqual([{ width: 20, depth: 5 }])
    expect(await storedRow(session.id)).toEqual({ values: newer, version: 2 })
  })

  it('keep the stored values when their build fails: the model says why when asked', async () => {
    const { session } = await openSession(MODEL)
    let failed!: () => void
    const failure = new Promise<void>((resolve) => (failed = resolve))
    const stored = await updateSession(session.id, {
      current: {},
      changes: { width: 30 },
      build: async () => {
        failed()
        throw new Error('the engine went away')
      },
    })
    await failure

    expect(stored).toEqual({ width: 30 })
    expect(await storedRow(session.id)).toEqual({ values: { width: 30 }, version: 1 })
  })

  it('start the build before the write, and build the stored values instead when another update came in between', async () => {
    const { session } = await openSession(MODEL)
    // Read by this request as {}: another instance stored a width meanwhile.
    await db.configSession.update({ where: { id: session.id }, data: { values: { width: 40 }, version: 1 } })
    const prefetched = buildUntilStopped()
    const built: unknown[] = []
    const build = (values: unknown, signal: AbortSignal) =>
      built.length === 0
        ? (built.push(values), prefetched.build(values, signal))
        : (built.push(values), Promise.resolve())
    expect(await updateSession(session.id, { current: {}, changes: { depth: 5 }, build })).toEqual({
      width: 40,
      depth: 5,
    })
    expect(built).toEqual([{ depth: 5 }, { width: 40, depth: 5 }])
    expect(String(await prefetched.reason)).toMatch(/superseded/)
  })

  it('answer 404 for a session deleted meanwhile, stopping the build begun beside the write', async () => {
    const { session } = await openSession(MODEL)
    await db.configSession.delete({ where: { id: session.id } })
    const started = buildUntilStopped()
    await expect(
      updateSession(session.id, { current: {}, changes: { width: 30 }, build: started.build }),
    ).rejects.toMatchObject({ code: 'not_found' })
    expect(String(await started.reason)).toMatch(/superseded/)
  })
})
