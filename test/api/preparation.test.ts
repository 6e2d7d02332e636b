import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as configurators from '@/lib/configurators/operations'
import { env } from '@/lib/env'
import * as sessions from '@/lib/sessions/operations'
import { api, readBody } from '@/test/api-client'
import { createConfigurator, signUp } from '@/test/fixtures'

// A model with presets (test/corpus/presets), uploaded file by file as the studio does: the
// server prepares it once after the last change, and its first customer gets cached models.
const CORPUS = path.join(import.meta.dirname, '../corpus/presets')

beforeAll(() => {
  env.PREPARE_MODELS = true
})
afterAll(() => {
  env.PREPARE_MODELS = false
})

async function preparationOf(token: string, configuratorId: string) {
  return readBody(await api('GET', `/configurators/${configuratorId}/preparation`, { token }), configurators.getPreparation)
}

describe('preparation after a change', () => {
  it('reads the parameters and builds the defaults and every preset, so the first customer gets cached models', async () => {
    const owner = await signUp()
    const configuratorId = await createConfigurator(owner.token, { mainFile: 'bracket.scad' })
    expect(await preparationOf(owner.token, configuratorId)).toBeNull()
    for (const name of ['bracket.scad', 'bracket.json']) {
      const body = fs.readFileSync(path.join(CORPUS, name), 'utf8')
      expect((await api('PUT', `/configurators/${configuratorId}/files/configurator/${name}`, { token: owner.token, body })).status).toBe(202)
    }

    let preparation = await preparationOf(owner.token, configuratorId)
    for (const deadline = Date.now() + 60_000; preparation?.state !== 'ready'; preparation = await preparationOf(owner.token, configuratorId)) {
      expect(preparation?.state).not.toBe('failed')
      expect(Date.now()).toBeLessThan(deadline)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(preparation).toMatchObject({ builds: 3, failedBuilds: 0, message: '' })
    expect(preparation.durationMs).toBeGreaterThan(0)

    // Every read and build the customer needs is in the cache already: nothing new is stored.
    const { db } = await import('@/lib/db')
    const cached = await db.cacheEntry.count()
    const session = await readBody(await api('POST', '/configsessions', { token: owner.token, body: { configuratorId } }), sessions.createSession)
    const model = await api('GET', `/configsessions/${session.id}/model`, { token: owner.token })
    expect(model.status).toBe(200)
    expect(model.headers.get('x-build-cache')).not.toBe('built')
    expect((await api('POST', `/configsessions/${session.id}/presets/Large`, { token: owner.token })).status).toBe(200)
    expect((await api('POST', `/configsessions/${session.id}/presets/${encodeURIComponent('v1.2 heavy duty')}`, { token: owner.token })).status).toBe(200)
    expect(await db.cacheEntry.count()).toBe(cached)
  })
})
