import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { env } from '@/lib/env'
import { api, callJson } from '@/test/support/api-client'
import { expectError, openSession } from '@/test/support/fixtures'

// Where a model refuses values (issue 49), as a shop or a customer page asks for it: searched in
// the background at the session's values, exact to the step, and never calling refused a value
// that builds (each boundary is built on both sides).

const GUARDED_BOX = `size = 40; // [20:1:100]
hole = 10; // [1:1:100]
assert(hole <= size - 8, "The hole must leave a 4 mm rim");
difference() { cube(size, center = true); cylinder(d = hole, h = size + 1, center = true); }
`
const HOLE_RANGE = { min: 1, max: 100, step: 1 }
const SEARCH_TIMEOUT_MS = 60_000

/** The map once every parameter's search has ended. */
async function refusedValues(sessionId: string, token: string) {
  const read = () => callJson('getRefusedValues', { params: { sessionId }, token })
  await expect
    .poll(
      async () =>
        Object.values((await read()).parameters).some((map) => !map.searched && /being searched/.test(map.reason)),
      {
        timeout: SEARCH_TIMEOUT_MS,
        interval: 250,
      },
    )
    .toBe(false)
  return read()
}

async function builds(sessionId: string, token: string, values: Record<string, number>): Promise<boolean> {
  const body = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value }]))
  expect((await api('PUT', `/configsessions/${sessionId}/parameters`, { token, body })).status).toBe(200)
  return (await api('GET', `/configsessions/${sessionId}/model`, { token })).status === 200
}

/** Each end of each range builds as the map says: refused inside, built just outside (within the slider's range). */
async function expectBoundariesBuild(
  sessionId: string,
  token: string,
  key: string,
  map: object | undefined,
  { min, max, step, others = {} }: { min: number; max: number; step: number; others?: Record<string, number> },
) {
  const ranges = map && 'ranges' in map ? (map.ranges as { from: number; to: number }[]) : []
  expect(ranges.length).toBeGreaterThan(0)
  for (const { from, to } of ranges)
    for (const [value, built] of [
      [from - step, true],
      [from, false],
      [to, false],
      [to + step, true],
    ] as const)
      if (value >= min && value <= max) expect(await builds(sessionId, token, { ...others, [key]: value })).toBe(built)
}

describe('the refused values of a session', { timeout: 3 * SEARCH_TIMEOUT_MS }, () => {
  it("maps a guarded box's hole at the session's size, again after the size changes, and each boundary builds as mapped", async () => {
    const { session, token } = await openSession(GUARDED_BOX)
    const at40 = await refusedValues(session.id, token)
    expect(at40).toEqual({
      complete: true,
      values: { size: 40, hole: 10 },
      parameters: {
        size: { searched: true, ranges: [], options: [] },
        hole: {
          searched: true,
          ranges: [{ from: 33, to: 100, message: 'The hole must leave a 4 mm rim' }],
          options: [],
        },
      },
    })
    await expectBoundariesBuild(session.id, token, 'hole', at40.parameters.hole, HOLE_RANGE)

    await builds(session.id, token, { size: 60, hole: 10 })
    const at60 = await refusedValues(session.id, token)
    expect(at60.values).toEqual({ size: 60, hole: 10 })
    expect(at60.parameters.hole).toEqual({
      searched: true,
      ranges: [{ from: 53, to: 100, message: 'The hole must leave a 4 mm rim' }],
      options: [],
    })
    await expectBoundariesBuild(session.id, token, 'hole', at60.parameters.hole, {
      ...HOLE_RANGE,
      others: { size: 60 },
    })
  })

  it('gives two rules on one parameter their own ranges, and says which parameters it cannot search', async () => {
    const source = [
      'width = 20; // [1:1:50]',
      'label = "A"; // 10',
      'shape = "round"; // [round, square, star]',
      'assert(width >= 5, "Too thin to print");',
      'assert(width <= 40, "Wider than the lid");',
      'assert(shape != "star" || width >= 30, "A star needs a width of 30");',
      'cube([width, 10, 2]);',
    ].join('\n')
    const { session, token } = await openSession(source)
    const { parameters, complete } = await refusedValues(session.id, token)
    expect(complete).toBe(true)
    expect(parameters.width).toEqual({
      searched: true,
      ranges: [
        { from: 1, to: 4, message: 'Too thin to print' },
        { from: 41, to: 50, message: 'Wider than the lid' },
      ],
      options: [],
    })
    expect(parameters.shape).toEqual({
      searched: true,
      ranges: [],
      options: [{ value: 'star', message: 'A star needs a width of 30' }],
    })
    expect(parameters.label).toEqual({ searched: false, reason: 'a text has no range to search' })
    await expectBoundariesBuild(session.id, token, 'width', parameters.width, { min: 1, max: 50, step: 1 })
  })

  it('marks the map of a model that loops at some values incomplete, and the server builds on', async () => {
    const looping =
      'n = 5; // [1:1:10]\nassert(n < 8 || len([for (i = [0:1e5]) for (j = [0:1e5]) if (i < 0) i]) == 0);\ncube(n);\n'
    const { session, token } = await openSession(looping, { extraSettings: { limits: { buildSeconds: 2 } } })
    const map = await refusedValues(session.id, token)
    expect(map.complete).toBe(false)
    expect(await builds(session.id, token, { n: 6 })).toBe(true)
  })

  it('says a model that draws random numbers without a seed cannot be searched, and why', async () => {
    const { session, token } = await openSession(
      GUARDED_BOX.replace('hole <= size - 8', 'hole <= size - 8 - rands(0, 8, 1)[0]'),
    )
    const { complete, parameters } = await refusedValues(session.id, token)
    expect(complete).toBe(true)
    for (const key of ['size', 'hole'])
      expect(parameters[key]).toEqual({
        searched: false,
        reason: expect.stringMatching(/random numbers without a seed/),
      })
  })

  it("answers a stranger 401 and another's session 404, with the session endpoints' authentication", async () => {
    const { session } = await openSession(GUARDED_BOX)
    const other = await openSession(GUARDED_BOX)
    await expectError(await api('GET', `/configsessions/${session.id}/refused-values`), 401, 'unauthorized')
    await expectError(
      await api('GET', `/configsessions/${session.id}/refused-values`, { token: other.token }),
      404,
      'not_found',
    )
  })
})

describe("the preparation's refused values", { timeout: 3 * SEARCH_TIMEOUT_MS }, () => {
  beforeAll(() => {
    env.PREPARE_MODELS = true
  })
  afterAll(() => {
    env.PREPARE_MODELS = false
  })

  it('maps the defaults and each preset, and the preset that sits in a refused range is there to name', async () => {
    const presets = {
      fileFormatVersion: '1',
      parameterSets: { Wide: { size: '40', hole: '36' }, Big: { size: '80', hole: '60' } },
    }
    const { configuratorId, token } = await openSession(
      GUARDED_BOX,
      {},
      {
        'configurator/main.json': JSON.stringify(presets),
      },
    )
    const read = () => callJson('getPreparation', { params: { configuratorId }, token })
    await expect
      .poll(async () => (await read()).refusals.done, { timeout: SEARCH_TIMEOUT_MS, interval: 250 })
      .toBe(true)
    const { refusals, failures } = await read()
    const hole = (from: number) => ({
      searched: true,
      ranges: [{ from, to: 100, message: 'The hole must leave a 4 mm rim' }],
      options: [],
    })
    expect(
      refusals.maps.map(({ build, values, complete, parameters }) => ({
        build,
        values,
        complete,
        hole: parameters.hole,
      })),
    ).toEqual([
      { build: 'the defaults', values: { size: 40, hole: 10 }, complete: true, hole: hole(33) },
      { build: 'preset Wide', values: { size: 40, hole: 36 }, complete: true, hole: hole(33) },
      { build: 'preset Big', values: { size: 80, hole: 60 }, complete: true, hole: hole(73) },
    ])
    // The preset the map refuses is the one that does not build.
    expect(failures.map(({ build }) => build)).toEqual(['preset Wide'])
  })
})
