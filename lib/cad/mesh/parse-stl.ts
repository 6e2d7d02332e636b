import type { Mesh } from '@/lib/cad/mesh/mesh'
import { DEFAULT_COLOR } from '@/lib/cad/mesh/parse-off'

/**
 * Reads binary STL as OpenSCAD exports it into one part of its default colour, each corner
 * position shared by the triangles that meet there, as OFF's are. OpenSCAD writes STL with less
 * work than OFF (no polygon text) and it needs no text parsing: the engine's format for a model
 * that names no colour.
 */
export function parseBinaryStl(bytes: Uint8Array): Mesh {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.byteLength < 84) throw new Error(`STL: ${bytes.byteLength} bytes, shorter than the 84-byte header`)
  const triangleCount = view.getUint32(80, true)
  if (bytes.byteLength !== 84 + triangleCount * 50)
    throw new Error(
      `STL: ${bytes.byteLength} bytes for ${triangleCount} triangles, expected ${84 + triangleCount * 50}`,
    )
  const corners = triangleCount * 3
  // Positions by their float bits, in an open-addressed table twice the corners' count.
  const size = 2 ** Math.ceil(Math.log2(2 * corners + 1))
  const table = new Int32Array(size).fill(-1)
  const bits = new Uint32Array(corners * 3)
  const indices = new Uint32Array(corners)
  let vertexCount = 0
  for (let c = 0; c < corners; c++) {
    const at = 84 + Math.floor(c / 3) * 50 + 12 + (c % 3) * 12
    const x = view.getUint32(at, true)
    const y = view.getUint32(at + 4, true)
    const z = view.getUint32(at + 8, true)
    let slot = (Math.imul(x, 73856093) ^ Math.imul(y, 19349663) ^ Math.imul(z, 83492791)) & (size - 1)
    for (;;) {
      const vertex = table[slot]!
      if (vertex === -1) {
        table[slot] = vertexCount
        bits.set([x, y, z], vertexCount * 3)
        indices[c] = vertexCount++
        break
      }
      if (bits[vertex * 3] === x && bits[vertex * 3 + 1] === y && bits[vertex * 3 + 2] === z) {
        indices[c] = vertex
        break
      }
      slot = (slot + 1) & (size - 1)
    }
  }
  const positions = new Float32Array(bits.buffer.slice(0, vertexCount * 12))
  if (positions.some((value) => !Number.isFinite(value))) throw new Error('STL: a vertex has a non-finite coordinate')
  const [r, g, b, a] = DEFAULT_COLOR.map((channel) => channel / 255) as [number, number, number, number]
  return triangleCount === 0 ? { parts: [] } : { parts: [{ color: [r, g, b, a], positions, indices }] }
}
