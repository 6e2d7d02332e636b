import { faceNormal } from '@/lib/cad/mesh/face-normal'
import type { Mesh } from '@/lib/cad/mesh/mesh'

/** Binary STL of every part together (STL has no colour). Normals are per face, zero for degenerate faces. */
export function writeStl(mesh: Mesh): Uint8Array {
  const triangleCount = mesh.parts.reduce((sum, part) => sum + part.indices.length / 3, 0)
  const bytes = new Uint8Array(84 + triangleCount * 50)
  // The header must not start with "solid", or some readers take the file for ASCII STL.
  bytes.set(new TextEncoder().encode('Paraform binary STL'))
  const view = new DataView(bytes.buffer)
  view.setUint32(80, triangleCount, true)
  let offset = 84
  const put = (value: number) => {
    view.setFloat32(offset, value, true)
    offset += 4
  }
  for (const { positions, indices } of mesh.parts) {
    for (let t = 0; t < indices.length; t += 3) {
      const corners = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3] as const
      faceNormal(positions, ...corners).forEach(put)
      for (const i of corners) [positions[i]!, positions[i + 1]!, positions[i + 2]!].forEach(put)
      offset += 2 // attribute byte count, 0
    }
  }
  return bytes
}
