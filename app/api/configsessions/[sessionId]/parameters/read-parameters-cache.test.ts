import { randomUUID } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { db } from '@/lib/db'
import { describeModelInputs } from '@/lib/sessions/model-inputs'
import { api } from '@/test/support/api-client'
import { createConfigurator, openSession, signUp } from '@/test/support/fixtures'
import { COUNT_TO_N } from '@/test/support/models'
import { draftOf } from '@/lib/releases/release-content'

// A loop OpenSCAD cannot finish within the time limit: n is 1e12 already in the source.
const RUNAWAY = `${COUNT_TO_N.replace('n = 0;', 'n = 1e12;')}
width = 40; // [10:1:100]
cube(width);
`

const LIMITS = { extraSettings: { limits: { buildSeconds: 0.5 } } }

/** A configurator of the runaway model, without a session (which would start reading at once). */
async function runawayInputs() {
  const owner = await signUp()
  const configuratorId = await createConfigurator(owner.token, LIMITS)
  expect(
    (
      await api('PUT', `/configurators/${configuratorId}/files/configurator/main.scad`, {
        token: owner.token,
        body: RUNAWAY,
      })
    ).status,
  ).toBe(202)
  const configurator = await db.configurator.findUniqueOrThrow({ where: { id: configuratorId } })
  return { inputs: await describeModelInputs(draftOf(configurator), null), reader: readerOf(configuratorId) }
}

/** Who reads, as the scheduling sees it: a session of the configurator nobody opened. */
function readerOf(configuratorId: string) {
  return { id: randomUUID(), identityId: null, configuratorId, applicationId: null }
}

describe('parameter reads that fail', () => {
  it('are cached by content and limits: the engine runs once, a longer limit reads again', async () => {
    const { readModelParameters: readParameters } = await import('@/lib/sessions/model-builds')
    const { inputs, reader } = await runawayInputs()

    const first = await readParameters(inputs, reader)
    expect(first.source).toBe('read')
    expect(first.definitions).toEqual([])
    expect(first.log.error).toMatch(/time limit of 0\.5 s/)
    expect((await readParameters(inputs, reader)).source).toBe('memory')

    // A fresh instance (no memory cache) finds the failed read stored.
    vi.resetModules()
    const fresh = await import('@/lib/sessions/model-builds')
    const stored = await fresh.readModelParameters(inputs, reader)
    expect(stored.source).toBe('stored')
    expect(stored.log).toEqual(first.log)

    const longer = await fresh.readModelParameters(
      { ...inputs, limits: { ...inputs.limits, timeLimitMs: 700 } },
      reader,
    )
    expect(longer.source).toBe('read')
    expect(longer.log.error).toMatch(/time limit of 0\.7 s/)
  })

  it('answer GET /parameters from the cache after the first time-out', async () => {
    const { token, session } = await openSession(RUNAWAY, LIMITS)
    const response = await api('GET', `/configsessions/${session.id}/parameters`, { token })
    expect(response.status).toBe(200)
    const { readModelParameters: readParameters } = await import('@/lib/sessions/model-builds')
    const configurator = await db.configurator.findFirstOrThrow({ where: { sessions: { some: { id: session.id } } } })
    expect(
      (await readParameters(await describeModelInputs(draftOf(configurator), null), readerOf(configurator.id))).source,
    ).toBe('memory')
  })
})
