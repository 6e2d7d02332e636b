import { describe, expect, it } from 'vitest'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import { linear, MATTE, type Mesh } from '@/lib/cad/mesh/mesh'
import { parseOff } from '@/lib/cad/mesh/parse-off'
import { BOX_AND_CUBE_OFF, TRANSLUCENT_WITH_DEGENERATE } from '@/lib/cad/mesh/test-meshes'
import { writeGlb } from '@/lib/cad/mesh/write-glb'
import { readValidGlb } from '@/test/support/ar-files'

const MATTE_FACTORS = { metallicFactor: MATTE.metallic, roughnessFactor: MATTE.roughness }

describe('writeGlb', () => {
  it('writes a valid flat-shaded node and mesh per part, in metres and Y up, whose bounds match the mesh', async () => {
    const mesh = parseOff(BOX_AND_CUBE_OFF)
    const gltf = await readValidGlb(writeGlb(mesh))
    expect(gltf.asset).toEqual({ version: '2.0', generator: 'Paraform' })
    expect(gltf.scenes[gltf.scene]!.nodes).toEqual([0, 1])
    expect(gltf.nodes!.map((node) => [node.name, node.mesh, node.extras.partIndex])).toEqual([
      ['part-0', 0, 0],
      ['part-1', 1, 1],
    ])
    expect(gltf.meshes!.map((m) => m.name)).toEqual(['part-0', 'part-1'])

    const accessors = gltf.accessors!
    const min = [Infinity, Infinity, Infinity]
    const max = [-Infinity, -Infinity, -Infinity]
    gltf.meshes!.forEach((m, n) => {
      const { attributes, material } = m.primitives[0]!
      const position = accessors[attributes.POSITION!]!
      expect(position.count).toBe(mesh.parts[n]!.indices.length) // de-indexed: three vertices per triangle
      expect(accessors[attributes.NORMAL!]!.count).toBe(position.count)
      position.min!.forEach((value, axis) => (min[axis] = Math.min(min[axis]!, value)))
      position.max!.forEach((value, axis) => (max[axis] = Math.max(max[axis]!, value)))
      const [r, g, b, a] = mesh.parts[n]!.color
      expect(gltf.materials![material]!.pbrMetallicRoughness).toEqual({
        baseColorFactor: [linear(r), linear(g), linear(b), a],
        ...MATTE_FACTORS,
      })
      expect(gltf.materials![material]!.alphaMode).toBeUndefined()
    })
    // The model's Z is glTF's Y, its Y glTF's -Z; millimetres are thousandths.
    const { minX, minY, minZ, maxX, maxY, maxZ } = measureMesh(mesh).boundingBox
    const expected = { min: [minX, minZ, -maxY], max: [maxX, maxZ, -minY] }
    const found = { min, max }
    for (const bound of ['min', 'max'] as const)
      found[bound].forEach((m, axis) => expect(m).toBeCloseTo(expected[bound][axis]! / 1000, 7))
  })

  it("gives a part the scene's surface where it maps", async () => {
    const [red, cube] = parseOff(BOX_AND_CUBE_OFF).parts
    const gltf = await readValidGlb(
      writeGlb({ parts: [{ ...red!, surface: { metallic: 1, roughness: 0.25 } }, cube!] }),
    )
    expect(gltf.materials!.map((material) => material.pbrMetallicRoughness)).toMatchObject([
      { metallicFactor: 1, roughnessFactor: 0.25 },
      MATTE_FACTORS,
    ])
  })

  it('blends translucent parts and leaves out degenerate triangles', async () => {
    const gltf = await readValidGlb(writeGlb(TRANSLUCENT_WITH_DEGENERATE))
    expect(gltf.materials![0]!.alphaMode).toBe('BLEND')
    expect(gltf.accessors![gltf.meshes![0]!.primitives[0]!.attributes.POSITION!]!.count).toBe(12)
  })

  it('gives a part with only degenerate triangles a node without a mesh', async () => {
    const flat: Mesh = {
      parts: [{ color: [1, 1, 1, 1], positions: new Float32Array(9), indices: new Uint32Array([0, 1, 2]) }],
    }
    const gltf = await readValidGlb(writeGlb({ parts: [...TRANSLUCENT_WITH_DEGENERATE.parts, ...flat.parts] }))
    expect(gltf.nodes!.map((node) => [node.name, node.mesh])).toEqual([
      ['part-0', 0],
      ['part-1', undefined],
    ])
  })

  it('names a part the model names by its name, keeping its part index for the scene', async () => {
    const [red, cube] = parseOff(BOX_AND_CUBE_OFF).parts
    const gltf = await readValidGlb(writeGlb({ parts: [{ ...red!, name: 'Bracket' }, cube!] }))
    expect(gltf.nodes!.map((node) => [node.name, node.extras.partIndex])).toEqual([
      ['Bracket', 0],
      ['part-1', 1],
    ])
    expect(gltf.meshes!.map((mesh) => mesh.name)).toEqual(['Bracket', 'part-1'])
  })

  it('writes an empty scene for an empty mesh', async () => {
    const gltf = await readValidGlb(writeGlb({ parts: [] }))
    expect(gltf.scenes).toEqual([{}])
    expect(gltf.nodes).toBeUndefined()
  })
})
