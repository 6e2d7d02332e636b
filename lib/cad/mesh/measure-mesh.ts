import type { BoundingBox, Mesh } from '@/lib/cad/mesh/mesh'

/** Axis-aligned bounds of every part and the enclosed volume in mm³ (all zeros for an empty mesh). */
export function measureMesh(mesh: Mesh): { boundingBox: BoundingBox; volume: number } {
  const min = [Infinity, Infinity, Infinity]
  const max = [-Infinity, -Infinity, -Infinity]
  let signedVolume = 0
  for (const { positions: p, indices } of mesh.parts) {
    p.forEach((value, i) => {
      min[i % 3] = Math.min(min[i % 3]!, value)
      max[i % 3] = Math.max(max[i % 3]!, value)
    })
    // Divergence theorem: each triangle spans a signed tetrahedron with the origin.
    for (let t = 0; t < indices.length; t += 3) {
      const [a, b, c] = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3]
      signedVolume +=
        p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!) +
        p[a + 1]! * (p[b + 2]! * p[c]! - p[b]! * p[c + 2]!) +
        p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!)
    }
  }
  if (min[0] === Infinity) return { boundingBox: { minX: 0, maxX: 0, minY: 0, maxY: 0, minZ: 0, maxZ: 0 }, volume: 0 }
  const [minX, minY, minZ] = min as [number, number, number]
  const [maxX, maxY, maxZ] = max as [number, number, number]
  return { boundingBox: { minX, maxX, minY, maxY, minZ, maxZ }, volume: Math.abs(signedVolume / 6) }
}
