import { faceNormal } from '@/lib/cad/mesh/face-normal'
import { linear, MATTE, yUp, type Mesh } from '@/lib/cad/mesh/mesh'

const ARRAY_BUFFER = 34962
const FLOAT = 5126
const TRIANGLES = 4

/**
 * glTF 2.0 binary: per part one node `part-<n>` and one flat-shaded mesh (each triangle gets its
 * own three vertices and its face normal). In metres and Y up, as glTF's specification says, so
 * AR viewers show the product at its real size (the viewer turns it back: parse-glb.ts).
 * Degenerate triangles are left out: they draw nothing and glTF requires unit normals. A part
 * left without triangles gets a node but no mesh.
 */
export function writeGlb(mesh: Mesh): Uint8Array {
  const nodes: object[] = []
  const meshes: object[] = []
  const materials: object[] = []
  const accessors: object[] = []
  const bufferViews: object[] = []
  const chunks: Float32Array[] = []
  let byteLength = 0
  const addAccessor = (data: Float32Array, bounds: object) => {
    bufferViews.push({ buffer: 0, byteOffset: byteLength, byteLength: data.byteLength, target: ARRAY_BUFFER })
    accessors.push({
      bufferView: bufferViews.length - 1,
      componentType: FLOAT,
      count: data.length / 3,
      type: 'VEC3',
      ...bounds,
    })
    chunks.push(data)
    byteLength += data.byteLength
    return accessors.length - 1
  }

  mesh.parts.forEach(({ color, positions, indices, surface = MATTE, ...part }, n) => {
    const name = part.name ?? `part-${n}`
    const node: Record<string, unknown> = { name, extras: { partIndex: n } }
    nodes.push(node)
    const { vertices, normals } = flatten(positions, indices)
    if (vertices.length === 0) return
    const min = [Infinity, Infinity, Infinity]
    const max = [-Infinity, -Infinity, -Infinity]
    vertices.forEach((value, i) => {
      min[i % 3] = Math.min(min[i % 3]!, value)
      max[i % 3] = Math.max(max[i % 3]!, value)
    })
    const attributes = { POSITION: addAccessor(vertices, { min, max }), NORMAL: addAccessor(normals, {}) }
    const [r, g, b, a] = color
    materials.push({
      name,
      pbrMetallicRoughness: {
        baseColorFactor: [linear(r), linear(g), linear(b), a],
        metallicFactor: surface.metallic,
        roughnessFactor: surface.roughness,
      },
      ...(color[3] < 1 && { alphaMode: 'BLEND' }),
    })
    meshes.push({ name, primitives: [{ attributes, material: materials.length - 1, mode: TRIANGLES }] })
    node.mesh = meshes.length - 1
  })

  // glTF forbids empty arrays and zero-length buffers, so an empty mesh has only a scene without nodes.
  const nonEmpty = (entries: Record<string, object[]>) =>
    Object.fromEntries(Object.entries(entries).filter(([, list]) => list.length > 0))
  const json = {
    asset: { version: '2.0', generator: 'Paraform' },
    scene: 0,
    scenes: [nodes.length > 0 ? { nodes: nodes.map((_, i) => i) } : {}],
    ...nonEmpty({ nodes, meshes, materials, accessors, bufferViews, buffers: byteLength > 0 ? [{ byteLength }] : [] }),
  }
  return toGlb(new TextEncoder().encode(JSON.stringify(json)), chunks, byteLength)
}

const METRES_PER_MM = 0.001

/** One vertex per triangle corner with the face normal, in metres and Y up; degenerate triangles are dropped. */
function flatten(p: Float32Array, indices: Uint32Array) {
  const vertices: number[] = []
  const normals: number[] = []
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3]
    const unit = faceNormal(p, a, b, c)
    if (unit[0] === 0 && unit[1] === 0 && unit[2] === 0) continue
    const normal = yUp(unit)
    for (const i of [a, b, c]) {
      vertices.push(...yUp(p, i, METRES_PER_MM))
      normals.push(...normal)
    }
  }
  return { vertices: new Float32Array(vertices), normals: new Float32Array(normals) }
}

/** GLB container: 12-byte header, JSON chunk padded with spaces, BIN chunk padded with zeros. */
function toGlb(json: Uint8Array, chunks: Float32Array[], binLength: number): Uint8Array {
  const pad4 = (length: number) => Math.ceil(length / 4) * 4
  const jsonLength = pad4(json.length)
  const hasBin = binLength > 0
  const total = 12 + 8 + jsonLength + (hasBin ? 8 + pad4(binLength) : 0)
  const bytes = new Uint8Array(total)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, 0x46546c67, true) // "glTF"
  view.setUint32(4, 2, true)
  view.setUint32(8, total, true)
  view.setUint32(12, jsonLength, true)
  view.setUint32(16, 0x4e4f534a, true) // "JSON"
  bytes.fill(0x20, 20, 20 + jsonLength)
  bytes.set(json, 20)
  if (hasBin) {
    let offset = 20 + jsonLength
    view.setUint32(offset, pad4(binLength), true)
    view.setUint32(offset + 4, 0x004e4942, true) // "BIN\0"
    offset += 8
    for (const chunk of chunks) {
      bytes.set(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength), offset)
      offset += chunk.byteLength
    }
  }
  return bytes
}
