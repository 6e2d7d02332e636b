import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as configurators from '@/lib/configurators/operations'
import { env } from '@/lib/env'
import * as sessions from '@/lib/sessions/operations'
import { api, readBody } from '@/test/api-client'
import { createConfigurator, signUp } from '@/test/fixtures'
import { COUNT_TO_N } from '@/test/models'

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
    expect(await preparationOf(owner.token, configuratorId)).toMatchObject({ state: 'none', startedAt: null })
    for (const name of ['bracket.scad', 'bracket.json']) {
      const body = fs.readFileSync(path.join(CORPUS, name), 'utf8')
      expect((await api('PUT', `/configurators/${configuratorId}/files/configurator/${name}`, { token: owner.token, body })).status).toBe(202)
    }

    let preparation = await preparationOf(owner.token, configuratorId)
    // Its test drive too: its builds would land in the cache while the customer's are counted.
    for (const deadline = Date.now() + 60_000; preparation?.state !== 'ready' || !preparation.testDrive.done; preparation = await preparationOf(owner.token, configuratorId)) {
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

describe('test drive after the preparation', () => {
  it('builds random combinations within the ranges behind other builds, and reports those that fail or run past the time limit', async () => {
    const owner = await signUp()
    const configuratorId = await createConfigurator(owner.token, { extraSettings: { limits: { buildSeconds: 1 } } })
    // Assignments run in order, before any statement: the size check comes before the counting.
    const source = `size = 10; // [1:1:20]\ncheck = assert(size < 15, "size must be under 15") 0;\n${COUNT_TO_N}cube(size);\n`
    expect((await api('PUT', `/configurators/${configuratorId}/files/configurator/main.scad`, { token: owner.token, body: source })).status).toBe(202)

    let preparation = await preparationOf(owner.token, configuratorId)
    for (const deadline = Date.now() + 60_000; !preparation?.testDrive.done; preparation = await preparationOf(owner.token, configuratorId)) {
      expect(Date.now()).toBeLessThan(deadline)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const { samples } = preparation.testDrive
    expect(samples).toHaveLength(4)
    expect(new Set(samples.map((sample) => JSON.stringify(sample.values))).size).toBe(4)
    for (const { values, outcome, message } of samples) {
      const { size, n } = values as { size: number; n: number }
      expect(Number.isInteger(size) && size >= 1 && size <= 20).toBe(true)
      expect(Number.isInteger(n) && n >= 0 && n <= 1e12).toBe(true)
      // As the model says: the size check first, then counting to n (400,000 a second, 1 s allowed).
      const expected = size >= 15 ? 'failed' : n > 1e7 ? 'time limit' : 'built'
      expect({ values, outcome }).toEqual({ values, outcome: expected })
      if (outcome === 'failed') expect(message).toBe(`ERROR: Assertion '(size < 15)' failed: "size must be under 15" in file main.scad, line 2`)
    }
  })
})
