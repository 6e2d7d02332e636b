import { describe, expect, it, vi } from 'vitest'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { call, callJson } from '@/test/support/api-client'
import { expectError, openSession, registerApplication } from '@/test/support/fixtures'

// A session's row as requests read it (lib/sessions/session-rows.ts): remembered by the embedded
// database's one process, read by every request on PostgreSQL; either way each request sees the
// last write.

const MODEL = 'width = 10; // [1:100]\ndepth = 10; // [1:100]\ncube([width, depth, 1]);\n'

describe("a session's row", () => {
  it('is read by each request of a move on PostgreSQL and by none on the embedded database, and follows every write', async () => {
    const { session, token } = await openSession(MODEL)
    const params = { sessionId: session.id }
    const reads = vi.spyOn(db.configSession, 'findUnique')
    try {
      for (const width of [20, 30]) {
        expect((await call('setParameters', { params, token, body: { width: { value: width } } })).status).toBe(200)
        const parameters = await callJson('getParameters', { params, token })
        expect(parameters.width?.value).toBe(width)
      }
      expect(reads).toHaveBeenCalledTimes(env.DATABASE_URL ? 4 : 0)
    } finally {
      reads.mockRestore()
    }
  })

  it.each(['application', 'configurator'] as const)(
    "is gone with its %s: the session's model key finds nothing after the deletion",
    async (deleted) => {
      const { configuratorId, token } = await openSession(MODEL)
      const application = await registerApplication(token, configuratorId)
      const { accessToken } = await callJson('issueAnonymousToken', { headers: { 'x-api-key': application.key } })
      const customer = { token: accessToken, headers: { 'x-api-key': application.key } }
      const { id } = await callJson('createSession', { ...customer, body: { configuratorId } })
      const params = { sessionId: id }
      expect((await call('setParameters', { params, ...customer, body: { width: { value: 20 } } })).status).toBe(200)
      const { modelKey } = await callJson('getSession', { params, ...customer })

      const deletion =
        deleted === 'application'
          ? call('deleteApplication', { params: { applicationId: application.UUID }, token })
          : call('deleteConfigurator', { params: { configuratorId }, token })
      expect((await deletion).status).toBe(204)

      await expectError(await call('getModel', { params, query: { key: modelKey } }), 404, 'not_found')
    },
  )
})
