import { describe, expect, it } from 'vitest'
import { getHealth } from '@/lib/health/operations'
import { api, readBody } from '@/test/support/api-client'
import { openSession } from '@/test/support/fixtures'

const onPostgres = process.env.TEST_DB === 'postgres'

describe('GET /api/health', () => {
  it('answers 200 without authentication: database, storage, build queue and workers', async () => {
    const response = await api('GET', '/health')
    expect(response.status).toBe(200)
    const health = await readBody(response, getHealth)
    expect(health.database.kind).toBe(onPostgres ? 'postgresql' : 'embedded')
    expect(health.storage).toMatchObject({ ok: true, kind: 'disk' })
    expect(health.queue.kind).toBe(onPostgres ? 'postgresql' : 'in-process')
  })

  it.runIf(onPostgres)(
    'lists this process as a live build worker once it built, with nothing left queued',
    async () => {
      const { session, token } = await openSession('cube(10);')
      expect((await api('GET', `/configsessions/${session.id}/objectinfo`, { token })).status).toBe(200)
      const health = await readBody(await api('GET', '/health'), getHealth)
      expect(health.workers).toHaveLength(1)
      expect(health.workers[0]!.lastBeatMsAgo).toBeLessThan(10_000)
      expect(health.workers[0]!.slots).toBeGreaterThan(0)
      expect(health.queue.queued).toBe(0)
    },
  )

  it('carries no secrets: no URLs, credentials or paths', async () => {
    const text = await (await api('GET', '/health')).text()
    expect(text).not.toMatch(/postgres(ql)?:\/\/|password|secret|\/tmp\//i)
  })
})
