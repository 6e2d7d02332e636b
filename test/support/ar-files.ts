import { createRequire } from 'node:module'
import { expect } from 'vitest'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import { parseBinaryStl } from '@/lib/cad/mesh/parse-stl'
import { readUsdz } from '@/test/support/tinyusdz'

// The AR files of a model read back by independent readers: its USDZ by TinyUSDZ, its GLB by
// Khronos' glTF validator, both against the STL of the same values (docs/ar.md).

// gltf-validator ships no type declarations; this is the part of its API the tests use.
const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(bytes: Uint8Array): Promise<{ issues: { numErrors: number; messages: { severity: number }[] } }>
}

interface Gltf {
  asset: { version: string; generator?: string; extras?: unknown }
  scene: number
  scenes: { nodes?: number[] }[]
  nodes?: { name: string; mesh?: number; extras: { partIndex: number } }[]
  meshes?: { name: string; primitives: { attributes: Record<string, number>; material: number }[] }[]
  materials?: {
    pbrMetallicRoughness: { baseColorFactor: number[]; metallicFactor: number; roughnessFactor: number }
    alphaMode?: string
  }[]
  accessors?: { count: number; min?: number[]; max?: number[] }[]
}

/** The GLB's JSON, once Khronos' validator found no error in it and its container is laid out right. */
export async function readValidGlb(bytes: Uint8Array): Promise<Gltf> {
  const report = await validator.validateBytes(bytes)
  expect(report.issues.messages.filter((message) => message.severity === 0)).toEqual([])
  expect(report.issues.numErrors).toBe(0)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  expect(view.getUint32(8, true)).toBe(bytes.byteLength)
  expect(bytes.byteLength % 4).toBe(0)
  const jsonLength = view.getUint32(12, true)
  return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength))) as Gltf
}

type Box = { min: number[]; max: number[] }

/**
 * Checks a model's USDZ and GLB against its STL: the USDZ has the STL's triangles, a material per
 * part (the GLB's parts) and the STL's bounding box in metres, Y up, within 0.1 %; the GLB passes
 * the validator with the same box. Answers what the readers read.
 */
export async function expectArFiles(files: { stl: Uint8Array; usdz: Uint8Array; glb: Uint8Array }) {
  const stl = parseBinaryStl(files.stl)
  const { minX, maxX, minY, maxY, minZ, maxZ } = measureMesh(stl).boundingBox
  // Y up: the model's Z is Y, its Y is -Z; in metres.
  const expected: Box = { min: [minX, minZ, -maxY], max: [maxX, maxZ, -minY] }
  const tolerance = 0.001 * Math.max(maxX - minX, maxY - minY, maxZ - minZ)
  const expectBox = (box: Box, metres: number, what: string) =>
    (['min', 'max'] as const).forEach((bound) =>
      expected[bound].forEach((mm, axis) =>
        expect(Math.abs(box[bound][axis]! * metres * 1000 - mm), `${what} ${bound}[${axis}]`).toBeLessThanOrEqual(
          tolerance,
        ),
      ),
    )

  const usdz = await readUsdz(files.usdz)
  expect(usdz.layer).toMatch(/metersPerUnit = 0\.001/)
  expect(usdz.layer).toMatch(/upAxis = "Y"/)
  const triangles = stl.parts.reduce((sum, part) => sum + part.indices.length / 3, 0)
  expect(usdz.meshes.reduce((sum, mesh) => sum + mesh.faceVertexIndices.length / 3, 0)).toBe(triangles)
  expectBox(boxOf(usdz.meshes.flatMap((mesh) => [...mesh.points])), 0.001, 'USDZ')

  const gltf = await readValidGlb(files.glb)
  const bounds = gltf.meshes!.flatMap((mesh) => {
    const { min, max } = gltf.accessors![mesh.primitives[0]!.attributes.POSITION!]!
    return [...min!, ...max!]
  })
  expectBox(boxOf(bounds), 1, 'GLB')
  // A material per part, each its own.
  expect(usdz.meshes).toHaveLength(gltf.meshes!.length)
  expect(new Set(usdz.meshes.map((mesh) => mesh.materialId)).size).toBe(usdz.meshes.length)
  for (const material of usdz.materials) expect(material.diffuseColor).toHaveLength(3)
  return { usdz, gltf }
}

function boxOf(points: ArrayLike<number>): Box {
  const box: Box = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] }
  for (let i = 0; i < points.length; i++) {
    box.min[i % 3] = Math.min(box.min[i % 3]!, points[i]!)
    box.max[i % 3] = Math.max(box.max[i % 3]!, points[i]!)
  }
  return box
}
