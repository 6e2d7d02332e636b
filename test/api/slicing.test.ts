import { describe, expect, it } from 'vitest'
import { api } from '@/test/support/api-client'
import { openSession } from '@/test/support/fixtures'
import { directSlice, summaryDifferences } from '@/test/support/print-ready'
import { DEFAULT_PROFILE, flatConfig } from '@/lib/slicing/profiles'

// The session's objectinfo with PrusaSlicer's slice of its final quality (issue 48): sliced in the
// background once the values settle, by whichever worker takes it, cached by the parts and profile.
const SLICE_TIMEOUT_MS = 90_000

async function objectInfoOf(sessionId: string, token: string) {
  const response = await api('GET', `/configsessions/${sessionId}/objectinfo`, { token })
  expect(response.status).toBe(200)
  return response.json()
}

/** The objectinfo once its slice has ended, done or failed. */
async function sliced(sessionId: string, token: string) {
  await expect
    .poll(async () => (await objectInfoOf(sessionId, token)).slice.state, { timeout: SLICE_TIMEOUT_MS, interval: 500 })
    .toMatch(/^(done|failed)$/)
  return objectInfoOf(sessionId, token)
}

describe('the slice of the manufactured model', () => {
  it('reports what PrusaSlicer writes for the final 3MF with the default profile, and answers it from the cache after', async () => {
    const source = 'height = 80; // [20:100]\ncube([10, 10, height]);\n'
    const { session, token } = await openSession(source)
    const first = await objectInfoOf(session.id, token)
    expect(first.slice).toMatchObject({ profile: DEFAULT_PROFILE, extruders: 1, parts: 1, oneFilament: false })
    expect(['waiting', 'slicing', 'done']).toContain(first.slice.state)

    const { slice } = await sliced(session.id, token)
    expect(slice).toMatchObject({ state: 'done', supports: false, layers: 400, error: null })
    const model = await api('GET', `/configsessions/${session.id}/model?type=3mf`, { token })
    const direct = await directSlice(new Uint8Array(await model.arrayBuffer()), flatConfig())
    expect(summaryDifferences(slice, direct)).toEqual([])

    // Another session of the same model and values: the same slice, from the cache.
    const again = await openSession(source)
    await expect
      .poll(async () => (await objectInfoOf(again.session.id, again.token)).slice, { timeout: SLICE_TIMEOUT_MS })
      .toEqual(slice)
  })

  it('says every part of a coloured model is printed in the one filament of a single-extruder printer', async () => {
    const source = 'size = 10; // [5:20]\ncolor("red") cube(size);\ncolor("blue") translate([size, 0, 0]) cube(5);\n'
    const { session, token } = await openSession(source)
    const { slice } = await sliced(session.id, token)
    expect(slice).toMatchObject({ state: 'done', extruders: 1, parts: 2, oneFilament: true })
    expect(slice.materials).toHaveLength(1)
  })

  it('says a model too large for the printer could not be sliced, and the price from its geometry stays', async () => {
    const { session, token } = await openSession('length = 300; // [100:400]\ncube([length, 20, 10]);\n')
    const { slice, print } = await sliced(session.id, token)
    expect(slice).toMatchObject({ state: 'failed', error: 'Objects could not fit on the bed', printTimeSeconds: null })
    expect(print.volume).toBeCloseTo(300 * 20 * 10, 3)
  })

  it('does not slice a 2D model, which is cut', async () => {
    const { session, token } = await openSession('size = 20; // [10:40]\nsquare(size);\n')
    const { slice } = await objectInfoOf(session.id, token)
    expect(slice).toMatchObject({ state: 'unavailable', error: 'a 2D model is cut, not printed' })
  })
})
