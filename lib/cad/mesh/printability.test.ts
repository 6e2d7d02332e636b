import { describe, expect, it } from 'vitest'
import { measureSolid, weld } from '@/lib/cad/mesh/printability'

// A tetrahedron with its right angle at the origin, legs of 6 mm, triangles counter-clockwise from outside.
const positions = new Float32Array([0, 0, 0, 6, 0, 0, 0, 6, 0, 0, 0, 6])
const FACES = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]
const solid = (faces: number[]) => ({
  parts: [{ color: [1, 1, 1, 1] as const, positions, indices: Uint32Array.from(faces) }],
})

describe('measureSolid', () => {
  it('measures a closed solid: volume, area, walls straight inwards', () => {
    const measure = measureSolid(solid(FACES))
    expect(measure.closed).toBe(true)
    expect(measure.bodies).toBe(1)
    expect(measure.volume).toBeCloseTo(36, 6)
    expect(measure.area).toBeCloseTo(3 * 18 + (Math.sqrt(3) / 4) * 72, 4)
    expect(measure.thinnestWalls.length).toBeGreaterThan(0)
    // Thinnest near the edges, never more than the tetrahedron's height over its slanted face.
    expect(measure.thinnestWalls[0]!.thickness).toBeLessThan(0.5)
    for (const wall of measure.thinnestWalls) expect(wall.thickness).toBeLessThanOrEqual(6 + 1e-3)
    // The wall it reports covers 1 % of the surface: thicker than the samples at the very edges.
    expect(measure.wall!.thickness).toBeGreaterThan(measure.thinnestWalls[0]!.thickness)
    expect(measure.wall).toEqual(measure.thinnestWalls[Math.floor(0.01 * 1024)])
  })

  it('counts separate pieces, not triangles', () => {
    const apart = new Float32Array([
      ...positions,
      ...Array.from(positions, (coordinate, k) => (k % 3 === 0 ? coordinate + 20 : coordinate)),
    ])
    const twice = [...FACES, ...FACES.map((vertex) => vertex + 4)]
    expect(
      measureSolid({ parts: [{ color: [1, 1, 1, 1], positions: apart, indices: Uint32Array.from(twice) }] }).bodies,
    ).toBe(2)
    expect(measureSolid(solid([])).bodies).toBe(0)
  })

  it('finds an open or inconsistently oriented surface not closed', () => {
    expect(measureSolid(solid(FACES.slice(3))).closed).toBe(false)
    expect(measureSolid(solid([0, 1, 2, ...FACES.slice(3)])).closed).toBe(false)
  })
})

describe('weld', () => {
  it('joins vertices at one position across faces and parts, -0 as 0, in the order they first appear', () => {
    // The tetrahedron as a mesher writes it: each face with vertices of its own, zeros of every other face as -0.
    const faces = Array.from({ length: 4 }, (_, face) => FACES.slice(face * 3, face * 3 + 3))
    const separate = faces.map((face, n) => ({
      color: [1, 1, 1, 1] as const,
      positions: Float32Array.from(
        face.flatMap((vertex) =>
          [...positions.slice(vertex * 3, vertex * 3 + 3)].map((c) => (c === 0 && n % 2 === 1 ? -0 : c)),
        ),
      ),
      indices: Uint32Array.from([0, 1, 2]),
    }))
    const welded = weld({ parts: separate })
    expect([...welded.positions]).toEqual([0, 0, 0, 0, 6, 0, 6, 0, 0, 0, 0, 6])
    expect(welded.indices).toHaveLength(12)
    expect(measureSolid({ parts: [{ color: [1, 1, 1, 1], ...welded }] })).toMatchObject({ closed: true, bodies: 1 })
    // Thousands of vertices on round coordinates (floats whose low bits are all zero): all kept apart.
    const grid = Float32Array.from({ length: 3 * 4096 }, (_, k) =>
      k % 3 === 2 ? 0 : k % 3 === 0 ? Math.floor(k / 3 / 64) : (k / 3) % 64,
    )
    const indices = Uint32Array.from({ length: 4096 }, (_, k) => k)
    expect(weld({ parts: [{ color: [1, 1, 1, 1], positions: grid, indices }] }).positions).toHaveLength(3 * 4096)
  })
})
