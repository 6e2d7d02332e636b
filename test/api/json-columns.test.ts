import { afterEach, describe, expect, it, vi } from 'vitest'
import { db } from '@/lib/db'
import { logger } from '@/lib/log'
import { call, callJson } from '@/test/support/api-client'
import { createConfigurator, expectError, openSession, signUp } from '@/test/support/fixtures'

// JSON columns are read through their zod schemas: a stored value that no longer parses (an older
// version's shape, a hand edit) is a fault of the server's, a 500 that shows the client nothing
// and logs an error naming the table, the row and the column. Never a silent cast.

const SIZE = { key: 'size', group: '', caption: '', kind: 'number', default: 10, min: 5, max: 20, step: null }

/** The error the request's 500 logged. */
function loggedError(log: ReturnType<typeof vi.spyOn>): Error {
  const [[fields]] = log.mock.calls as [[{ err: Error }]]
  return fields.err
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('a stored JSON value that does not parse', () => {
  it("is a 500 naming the release and its column when a release's parameters are read", async () => {
    const owner = await signUp()
    const configuratorId = await createConfigurator(owner.token)
    const { mainFile, cadType, cadVersion, rendererType, rendererVersion } = await db.configurator.findUniqueOrThrow({
      where: { id: configuratorId },
    })
    const settings = { configuratorId, mainFile, cadType, cadVersion, rendererType, rendererVersion, extraSettings: {} }
    await db.release.create({ data: { ...settings, number: 1, parameters: [SIZE] } })
    const second = await db.release.create({ data: { ...settings, number: 2, parameters: [{ ...SIZE, max: 30 }] } })
    const compare = () =>
      call('compareReleases', { params: { configuratorId }, query: { from: '1', to: '2' }, token: owner.token })
    expect((await compare()).status).toBe(200)

    // An older shape: `type` where the definitions now say `kind`.
    await db.release.update({
      where: { id: second.id },
      data: { parameters: [{ ...SIZE, kind: undefined, type: 'number' }] },
    })
    const log = vi.spyOn(logger, 'error').mockImplementation(() => {})
    const error = await expectError(await compare(), 500, 'internal_error')
    expect(error.message).toBe('Internal server error')
    expect(loggedError(log).message).toMatch(
      new RegExp(`^Release ${second.id}, column parameters: its stored value does not parse`),
    )
  })

  it("is a 500 naming the snapshot and its column when a snapshot's frozen content is read", async () => {
    const { session, token } = await openSession('size = 10; // [5:20]\ncube(size);\n')
    const snapshot = await callJson('createSnapshot', { params: { sessionId: session.id }, token })
    const read = () => call('getSnapshot', { params: { snapshotId: snapshot.id }, token })
    expect((await read()).status).toBe(200)

    const { frozen } = await db.snapshot.findUniqueOrThrow({ where: { id: snapshot.id } })
    await db.snapshot.update({
      where: { id: snapshot.id },
      data: { frozen: { ...(frozen as object), values: { size: null } } },
    })
    const log = vi.spyOn(logger, 'error').mockImplementation(() => {})
    const error = await expectError(await read(), 500, 'internal_error')
    expect(error.message).toBe('Internal server error')
    expect(loggedError(log).message).toMatch(
      new RegExp(`^Snapshot ${snapshot.id}, column frozen: its stored value does not parse`),
    )
    expect(loggedError(log).message).toContain('values.size')
  })
})
