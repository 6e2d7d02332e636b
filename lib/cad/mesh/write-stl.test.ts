import { describe, expect, it } from 'vitest'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import { parseOff } from '@/lib/cad/mesh/parse-off'
import { BOX_AND_CUBE_OFF, TRANSLUCENT_WITH_DEGENERATE } from '@/lib/cad/mesh/test-meshes'
import { writeStl } from '@/lib/cad/mesh/write-stl'

type Vec3 = [number, number, number]

/** Independent binary STL reader: normal and three corners per triangle. */
function readStl(bytes: Uint8Array): { normal: Vec3; corners: Vec3[] }[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const count = view.getUint32(80, true)
  expect(bytes.byteLength).toBe(84 + count * 50)
  const vec = (offset: number): Vec3 => [0, 4, 8].map((d) => view.getFloat32(offset + d, true)) as Vec3
  return Array.from({ length: count }, (_, t) => {
    const offset = 84 + t * 50
    expect(view.getUint16(offset + 48, true)).toBe(0)
    return { normal: vec(offset), corners: [vec(offset + 12), vec(offset + 24), vec(offset + 36)] }
  })
}

const signedVolume = ([a, b, c]: Vec3[]) =>
  (a![0] * (b![1] * c![2] - b![2] * c![1]) +
    a![1] * (b![2] * c![0] - b![0] * c![2]) +
    a![2] * (b![0] * c![1] - b![1] * c![0])) /
  6

describe('writeStl', () => {
  it('writes every triangle of every part with outward unit normals', () => {
    const mesh = parseOff(BOX_AND_CUBE_OFF)
    const bytes = writeStl(mesh)
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).not.toBe('solid')
    const triangles = readStl(bytes)
    expect(triangles).toHaveLength(24)
    const volume = triangles.reduce((sum, { corners }) => sum + signedVolume(corners), 0)
    expect(Math.abs(volume / measureMesh(mesh).volume - 1)).toBeLessThan(1e-6)
    for (const { normal, corners } of triangles) {
      expect(Math.hypot(...normal)).toBeCloseTo(1, 6)
      // Outward: the normal points away from the centre of whichever solid the face belongs to.
      const centre: Vec3 = corners[0]![0] >= 20 ? [21.5, 1.5, 1.5] : [5, 10, 2.5]
      const toFace = [0, 1, 2].map((axis) => corners[0]![axis]! - centre[axis]!)
      expect(normal[0] * toFace[0]! + normal[1] * toFace[1]! + normal[2] * toFace[2]!).toBeGreaterThan(0)
    }
  })

  it('gives degenerate faces a zero normal', () => {
    const triangles = readStl(writeStl(TRANSLUCENT_WITH_DEGENERATE))
    expect(triangles).toHaveLength(5)
    expect(triangles[4]!.normal).toEqual([0, 0, 0])
    expect(triangles[3]!.normal.map((n) => n * Math.sqrt(3))).toEqual([1, 1, 1].map((n) => expect.closeTo(n, 6)))
  })

  it('writes an empty mesh as a header with no triangles', () => {
    expect(readStl(writeStl({ parts: [] }))).toEqual([])
  })
})
