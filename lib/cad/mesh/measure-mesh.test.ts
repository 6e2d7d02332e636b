import { describe, expect, it } from 'vitest'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import type { MeshPart } from '@/lib/cad/mesh/mesh'
import { TRANSLUCENT_WITH_DEGENERATE } from '@/lib/cad/mesh/test-meshes'

const tetrahedron = TRANSLUCENT_WITH_DEGENERATE.parts[0]!

describe('measureMesh', () => {
  it('measures a closed mesh, wherever it lies and whichever way it is wound', () => {
    const far = {
      ...tetrahedron,
      positions: tetrahedron.positions.map((value, i) => value + (i % 3 === 0 ? 1000 : -50)),
    }
    const inverted: MeshPart = { ...tetrahedron, indices: tetrahedron.indices.slice().reverse() }
    expect(measureMesh({ parts: [tetrahedron] }).volume).toBeCloseTo(1 / 6, 12)
    expect(measureMesh({ parts: [far] }).volume).toBeCloseTo(1 / 6, 9)
    expect(measureMesh({ parts: [inverted] }).volume).toBeCloseTo(1 / 6, 12)
    expect(measureMesh({ parts: [tetrahedron, far] })).toEqual({
      boundingBox: { minX: 0, maxX: 1001, minY: -50, maxY: 1, minZ: -50, maxZ: 1 },
      volume: expect.closeTo(2 / 6, 9),
    })
  })

  it('gives zeros for an empty mesh', () => {
    expect(measureMesh({ parts: [] })).toEqual({
      boundingBox: { minX: 0, maxX: 0, minY: 0, maxY: 0, minZ: 0, maxZ: 0 },
      volume: 0,
    })
  })
})
