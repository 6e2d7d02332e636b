import type { Mesh } from '@/lib/cad/mesh/mesh'

/** OFF text of every part, each face carrying its part's colour as `r g b a` in 0..255, as OpenSCAD writes it. */
export function writeOff(mesh: Mesh): string {
  const vertexCount = mesh.parts.reduce((sum, part) => sum + part.positions.length / 3, 0)
  const faceCount = mesh.parts.reduce((sum, part) => sum + part.indices.length / 3, 0)
  const vertexLines: string[] = []
  const faceLines: string[] = []
  let base = 0
  for (const { color, positions, indices } of mesh.parts) {
    // String() of a float32 value reads back to the same float32.
    for (let i = 0; i < positions.length; i += 3)
      vertexLines.push(`${positions[i]} ${positions[i + 1]} ${positions[i + 2]}`)
    const rgba = color.map((channel) => Math.round(channel * 255)).join(' ')
    for (let t = 0; t < indices.length; t += 3) {
      faceLines.push(`3 ${base + indices[t]!} ${base + indices[t + 1]!} ${base + indices[t + 2]!} ${rgba}`)
    }
    base += positions.length / 3
  }
  return [`OFF ${vertexCount} ${faceCount} 0`, ...vertexLines, ...faceLines, ''].join('\n')
}
