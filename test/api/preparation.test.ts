import fs from 'node:fs'
import path from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as configurators from '@/lib/configurators/operations'
import { env } from '@/lib/env'
import * as sessions from '@/lib/sessions/operations'
import { api, readBody } from '@/test/support/api-client'
import { createConfigurator, signUp } from '@/test/support/fixtures'
import { COUNT_TO_N } from '@/test/support/models'

// A model with presets (test/corpus/presets), uploaded file by file as the studio does: the
// server prepares it once after the last change, and its first customer gets cached models.
const CORPUS = path.join(import.meta.dirname, '../corpus/presets')

/** Each test waits for whole preparations (two for the library change): longer than one build on a loaded machine. */
const PREPARATIONS_MS = 150_000

beforeAll(() => {
  env.PREPARE_MODELS = true
})
afterAll(() => {
  env.PREPARE_MODELS = false
})

async function preparationOf(token: string, configuratorId: string) {
  return readBody(
    await api('GET', `/configurators/${configuratorId}/preparation`, { token }),
    configurators.getPreparation,
  )
}

/** The configurator's preparation once it, its test drive and its maps of refused values are done; one that began after `after` when given. */
async function settledPreparation(token: string, configuratorId: string, after: string | null = null) {
  for (const deadline = Date.now() + 60_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const preparation = await preparationOf(token, configuratorId)
    expect(preparation.state).not.toBe('failed')
    if (
      preparation.state === 'ready' &&
      preparation.testDrive.done &&
      preparation.refusals.done &&
      preparation.startedAt !== after
    )
      return preparation
    expect(Date.now()).toBeLessThan(deadline)
  }
}

describe('preparation after a change', () => {
  it(
    'reads the parameters and builds the defaults and every preset, so the first customer gets cached models',
    { timeout: PREPARATIONS_MS },
    async () => {
      const owner = await signUp()
      const configuratorId = await createConfigurator(owner.token, { mainFile: 'bracket.scad' })
      expect(await preparationOf(owner.token, configuratorId)).toMatchObject({ state: 'none', startedAt: null })
      for (const name of ['bracket.scad', 'bracket.json']) {
        const body = fs.readFileSync(path.join(CORPUS, name), 'utf8')
        expect(
          (
            await api('PUT', `/configurators/${configuratorId}/files/configurator/${name}`, {
              token: owner.token,
              body,
            })
          ).status,
        ).toBe(202)
      }

      // Its test drive too: its builds would land in the cache while the customer's are counted.
      const preparation = await settledPreparation(owner.token, configuratorId)
      expect(preparation).toMatchObject({ builds: 3, failedBuilds: 0, message: '' })
      expect(preparation.durationMs).toBeGreaterThan(0)

      // Every read and build the customer needs is in the cache already: nothing new is stored.
      const { db } = await import('@/lib/db')
      const { buildStored } = await import('@/lib/builds/build-cache')
      const stored = async () => (await buildStored(), db.cacheEntry.count())
      const cached = await stored()
      const session = await readBody(
        await api('POST', '/configsessions', { token: owner.token, body: { configuratorId } }),
        sessions.createSession,
      )
      const model = await api('GET', `/configsessions/${session.id}/model`, { token: owner.token })
      expect(model.status).toBe(200)
      expect(model.headers.get('x-build-cache')).not.toBe('built')
      expect((await api('POST', `/configsessions/${session.id}/presets/Large`, { token: owner.token })).status).toBe(
        200,
      )
      expect(
        (
          await api('POST', `/configsessions/${session.id}/presets/${encodeURIComponent('v1.2 heavy duty')}`, {
            token: owner.token,
          })
        ).status,
      ).toBe(200)
      expect(await stored()).toBe(cached)
    },
  )
})

describe('a preparation whose models do not build', () => {
  it(
    'names each model that did not build, with its first error and its log',
    { timeout: PREPARATIONS_MS },
    async () => {
      const owner = await signUp()
      const configuratorId = await createConfigurator(owner.token)
      // The defaults pass the assert; the preset "Deep" fails it.
      const source =
        'width = 120; // [60:10:300]\ndepth = ' +
        '80; // [60:10:300]\ncube([width, depth, ' +
        '10]);\nassert(depth <= width, "The shelf ' +
        'must be at least as wide as it is deep");\n'
      const presets = JSON.stringify({
        fileFormatVersion: '1',
        parameterSets: { Deep: { depth: '200' }, Square: { depth: '120' } },
      })
      for (const [name, body] of [
        ['main.json', presets],
        ['main.scad', source],
      ]) {
        expect(
          (
            await api('PUT', `/configurators/${configuratorId}/files/configurator/${name}`, {
              token: owner.token,
              body,
            })
          ).status,
        ).toBe(202)
      }
      const preparation = await settledPreparation(owner.token, configuratorId)
      expect(preparation).toMatchObject({ builds: 3, failedBuilds: 1 })
      expect(preparation.failures).toEqual([
        {
          build: 'preset Deep',
          message: `ERROR: Assertion '(depth <= width)' failed: "The shelf must be at least as wide as it is deep" in file main.scad, line 4`,
          log: expect.stringContaining('TRACE:'),
        },
      ])
    },
  )
})

describe('test drive after the preparation', () => {
  it(
    'builds random combinations within the ranges behind other builds, and reports those that fail or run past the time limit',
    { timeout: PREPARATIONS_MS },
    async () => {
      const owner = await signUp()
      const configuratorId = await createConfigurator(owner.token, { extraSettings: { limits: { buildSeconds: 1 } } })
      // Assignments run in order, before any statement: the size check comes before the counting.
      const source = `size = 10; // [1:1:20]\ncheck = assert(size < 15, "size must be under 15") 0;\n${COUNT_TO_N}cube(size);\n`
      expect(
        (
          await api('PUT', `/configurators/${configuratorId}/files/configurator/main.scad`, {
            token: owner.token,
            body: source,
          })
        ).status,
      ).toBe(202)

      const { samples } = (await settledPreparation(owner.token, configuratorId)).testDrive
      expect(samples).toHaveLength(4)
      expect(new Set(samples.map((sample) => JSON.stringify(sample.values))).size).toBe(4)
      for (const { values, outcome, message } of samples) {
        const { size, n } = values as { size: number; n: number }
        expect(Number.isInteger(size) && size >= 1 && size <= 20).toBe(true)
        expect(Number.isInteger(n) && n >= 0 && n <= 1e12).toBe(true)
        // As the model says: the size check first, then counting to n (400,000 a second, 1 s allowed).
        const expected = size >= 15 ? 'failed' : n > 1e7 ? 'time limit' : 'built'
        expect({ values, outcome }).toEqual({ values, outcome: expected })
        if (outcome === 'failed')
          expect(message).toBe(
            `ERROR: Assertion '(size < 15)' failed: "size must be under 15" in file main.scad, line 2`,
          )
      }
    },
  )
})

describe('a library change', () => {
  it('prepares again the configurators that include or use the library', { timeout: PREPARATIONS_MS }, async () => {
    const admin = await signUp('admin')
    const version = (size: number) =>
      zipSync({ 'prep-lib-main': { 'part.scad': strToU8(`module part() cube(${size});\n`) } })
    expect(
      (
        await api('POST', '/libraries', {
          token: admin.token,
          body: version(5),
          headers: { 'content-type': 'application/zip' },
        })
      ).status,
    ).toBe(200)
    const configuratorId = await createConfigurator(admin.token)
    expect(
      (
        await api('PUT', `/configurators/${configuratorId}/files/configurator/main.scad`, {
          token: admin.token,
          body: 'use <prep-lib/part.scad>\npart();\n',
        })
      ).status,
    ).toBe(202)
    const first = await settledPreparation(admin.token, configuratorId)

    expect(
      (
        await api('POST', '/libraries', {
          token: admin.token,
          body: version(6),
          headers: { 'content-type': 'application/zip' },
        })
      ).status,
    ).toBe(200)
    await settledPreparation(admin.token, configuratorId, first.startedAt)
    const { db } = await import('@/lib/db')
    const { buildStored } = await import('@/lib/builds/build-cache')
    // The slicer's quote follows the objectinfo in the background, which the customer never waits for.
    const stored = async () => (
      await buildStored(),
      db.cacheEntry.count({ where: { NOT: { key: { startsWith: 'export:slice-' } } } })
    )
    const cached = await stored()
    const session = await readBody(
      await api('POST', '/configsessions', { token: admin.token, body: { configuratorId } }),
      sessions.createSession,
    )
    const info = await readBody(
      await api('GET', `/configsessions/${session.id}/objectinfo`, { token: admin.token }),
      sessions.getObjectInfo,
    )
    expect(info.volume).toBeCloseTo(216, 3)
    expect(await stored()).toBe(cached)
  })
})
