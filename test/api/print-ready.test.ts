import { describe, expect, it } from 'vitest'
import { api } from '@/test/api-client'
import { openSession } from '@/test/fixtures'
import { lib3mfWarnings, partSolids, readParts, slicerInfo, slicerRoundTrip } from '@/test/print-ready'

// Multi-part models as designers write them: each a case of how parts meet.
const MODELS = {
  'touching parts': {
    source: 'size = 10; // [5:20]\ncolor("red") cube(size);\ncolor("blue") translate([size, 0, 0]) cube(5);',
    parts: [
      ['Red', 1000],
      ['Blue', 125],
    ],
  },
  'overlapping parts (the later one wins)': {
    source: 'size = 10; // [5:20]\ncolor("red") cube(size);\ncolor("blue") translate([5, 0, 0]) cube(size);',
    parts: [
      ['Red', 500],
      ['Blue', 1000],
    ],
  },
  'a part inside another': {
    source: 'size = 20; // [10:30]\ncolor("white") cube(size);\ncolor("red") translate([5, 5, 5]) cube(5);',
    parts: [
      ['White', 8000 - 125],
      ['Red', 125],
    ],
  },
  'a colour that only cuts, nested colours, uncoloured geometry': {
    source: `size = 10; // [5:20]
difference() { color("white") cube(size); color("green") translate([5, 5, -1]) cylinder(r = 2, h = 30); }
color("red") { translate([0, 0, size]) cube(5); color("blue") translate([5, 0, size]) cube(5); }
translate([0, 0, -5]) cube([10, 10, 5]);`,
    // Green paints the hole's wall and has no volume; the outer colour wins over the inner blue.
    parts: [
      ['White', null],
      ['Red', 250],
      ['#F9D72C', 500],
    ],
  },
  'text on a plate': {
    source: 'name = "Ada"; // 10\ncolor("white") cube([40, 14, 2]);\ncolor("crimson") translate([4, 3, 2]) linear_extrude(1) text(name, size = 8, font = "Liberation Sans");',
    parts: [
      ['White', 40 * 14 * 2],
      ['Crimson', null],
    ],
  },
} as const

describe('3MF for manufacturing', () => {
  for (const [name, { source, parts }] of Object.entries(MODELS)) {
    it(`${name}: one object of closed, named parts that PrusaSlicer and lib3mf take as they are`, async () => {
      const owner = await openSession(source)
      const objectInfo = await (await api('GET', `/configsessions/${owner.session.id}/objectinfo`, { token: owner.token })).json()
      const response = await api('GET', `/configsessions/${owner.session.id}/model?type=3mf`, { token: owner.token })
      expect(response.status).toBe(200)
      const bytes = new Uint8Array(await response.arrayBuffer())

      const { objects, items } = readParts(bytes)
      expect(objects).toHaveLength(1)
      expect(items).toHaveLength(1)
      const object = objects[0]!
      expect(object.minZ).toBe(0)
      expect(object.parts.map((part) => part.name)).toEqual(parts.map(([partName]) => partName))
      const solids = await partSolids(object.parts)
      for (const solid of solids) expect(solid.status).toBe('NoError')
      parts.forEach(([, volume], k) => volume !== null && expect(solids[k]!.volume).toBeCloseTo(volume, 3))
      const total = solids.reduce((sum, solid) => sum + solid.volume, 0)
      expect(Math.abs(total - objectInfo.volume) / objectInfo.volume).toBeLessThan(0.001)

      const info = await slicerInfo(bytes)
      expect(info).toHaveLength(1)
      // Its number_of_parts counts closed shells: a part with a cavity has two.
      expect(info[0]!).toMatchObject({ manifold: 'yes', min_z: '0.000000' })
      expect(Math.abs(Number(info[0]!.volume) - objectInfo.volume) / objectInfo.volume).toBeLessThan(0.001)

      const again = readParts(await slicerRoundTrip(bytes))
      expect(again.objects).toHaveLength(1)
      expect(again.objects[0]!.parts.map((part) => part.name)).toEqual(parts.map(([partName]) => partName))

      expect(await lib3mfWarnings(bytes)).toEqual([])
    })
  }

  it('a customer text OpenSCAD writes unescaped into its CSG tree: the model as one closed part', async () => {
    const owner = await openSession(MODELS['text on a plate'].source)
    const put = await api('PUT', `/configsessions/${owner.session.id}/parameters`, { token: owner.token, body: { name: { value: 'Say "hi"' } } })
    expect(put.status).toBe(200)
    const objectInfo = await (await api('GET', `/configsessions/${owner.session.id}/objectinfo`, { token: owner.token })).json()
    const bytes = new Uint8Array(await (await api('GET', `/configsessions/${owner.session.id}/model?type=3mf`, { token: owner.token })).arrayBuffer())
    const object = readParts(bytes).objects[0]!
    expect(object.parts.map((part) => part.name)).toEqual(['White'])
    const [solid] = await partSolids(object.parts)
    expect(solid!.status).toBe('NoError')
    expect(solid!.volume).toBeCloseTo(objectInfo.volume, 1)
    expect((await slicerInfo(bytes))[0]).toMatchObject({ manifold: 'yes' })
  })
})
