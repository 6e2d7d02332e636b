import type { Mesh, Rgba } from '@/lib/cad/mesh/mesh'

// Layout: uint32 part count; per part: 4 x float32 colour, uint32 vertex count, uint32 index
// count, uint32 name length (0xffffffff: no name), the name (UTF-8, padded to 4 bytes), positions
// (float32), indices (uint32). Little-endian, 4-byte aligned throughout.

const NO_NAME = 0xffffffff
const padded = (length: number) => Math.ceil(length / 4) * 4

export function serializeMesh(mesh: Mesh): Uint8Array {
  const names = mesh.parts.map((part) => (part.name === undefined ? null : new TextEncoder().encode(part.name)))
  const size =
    4 +
    mesh.parts.reduce(
      (sum, part, n) => sum + 28 + padded(names[n]?.length ?? 0) + part.positions.byteLength + part.indices.byteLength,
      0,
    )
  const bytes = new Uint8Array(size)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, mesh.parts.length, true)
  let offset = 4
  for (const [n, part] of mesh.parts.entries()) {
    const name = names[n]
    part.color.forEach((channel, i) => view.setFloat32(offset + i * 4, channel, true))
    view.setUint32(offset + 16, part.positions.length, true)
    view.setUint32(offset + 20, part.indices.length, true)
    view.setUint32(offset + 24, name?.length ?? NO_NAME, true)
    offset += 28
    if (name) bytes.set(name, offset)
    offset += padded(name?.length ?? 0)
    bytes.set(new Uint8Array(part.positions.buffer, part.positions.byteOffset, part.positions.byteLength), offset)
    offset += part.positions.byteLength
    bytes.set(new Uint8Array(part.indices.buffer, part.indices.byteOffset, part.indices.byteLength), offset)
    offset += part.indices.byteLength
  }
  return bytes
}

export function deserializeMesh(bytes: Uint8Array): Mesh {
  const copy = new Uint8Array(bytes)
  const view = new DataView(copy.buffer)
  const count = view.getUint32(0, true)
  let offset = 4
  const parts = Array.from({ length: count }, () => {
    const channel = (i: number) => view.getFloat32(offset + i * 4, true)
    const color: Rgba = [channel(0), channel(1), channel(2), channel(3)]
    const positionCount = view.getUint32(offset + 16, true)
    const indexCount = view.getUint32(offset + 20, true)
    const nameLength = view.getUint32(offset + 24, true)
    offset += 28
    const name =
      nameLength === NO_NAME ? undefined : new TextDecoder().decode(copy.subarray(offset, offset + nameLength))
    offset += padded(name === undefined ? 0 : nameLength)
    const positions = new Float32Array(copy.buffer, offset, positionCount)
    offset += positionCount * 4
    const indices = new Uint32Array(copy.buffer, offset, indexCount)
    offset += indexCount * 4
    return { color, positions, indices, ...(name !== undefined && { name }) }
  })
  return { parts }
}
