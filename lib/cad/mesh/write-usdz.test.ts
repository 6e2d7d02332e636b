import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import { parseOff } from '@/lib/cad/mesh/parse-off'
import { BOX_AND_CUBE_OFF } from '@/lib/cad/mesh/test-meshes'
import { writeUsda, writeUsdz, writeUsdzInSlices } from '@/lib/cad/mesh/write-usdz'
import { readUsdz } from '@/test/support/tinyusdz'

const model = parseOff(BOX_AND_CUBE_OFF)

/** Each local file of the zip: its name, method and where its data starts. */
function localFiles(zip: Uint8Array) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  const files: { name: string; method: number; dataOffset: number; size: number }[] = []
  for (let offset = 0; view.getUint32(offset, true) === 0x04034b50;) {
    const method = view.getUint16(offset + 8, true)
    const size = view.getUint32(offset + 18, true)
    const nameLength = view.getUint16(offset + 26, true)
    const extraLength = view.getUint16(offset + 28, true)
    const name = new TextDecoder().decode(zip.subarray(offset + 30, offset + 30 + nameLength))
    const dataOffset = offset + 30 + nameLength + extraLength
    files.push({ name, method, dataOffset, size })
    offset = dataOffset + size
  }
  return files
}

describe('USDZ for AR Quick Look', () => {
  it('is an uncompressed zip whose default layer comes first, its data 64-byte aligned', () => {
    const usdz = writeUsdz(model)
    const files = localFiles(usdz)
    expect(files.map(({ name, method }) => ({ name, method }))).toEqual([{ name: 'model.usda', method: 0 }])
    for (const { dataOffset } of files) expect(dataOffset % 64).toBe(0)
    expect(new TextDecoder().decode(unzipSync(usdz)['model.usda'])).toBe(writeUsda(model))
  })

  it('reads back in TinyUSDZ at its real size, Y up, each part a mesh with its material', async () => {
    const { meshes, materials, layer } = await readUsdz(writeUsdz(model))
    expect(layer).toMatch(/metersPerUnit = 0\.001/)
    expect(layer).toMatch(/upAxis = "Y"/)
    expect(meshes.map((mesh) => mesh.faceVertexIndices.length / 3)).toEqual(
      model.parts.map((part) => part.indices.length / 3),
    )
    // Metres: the layer's millimetres times metersPerUnit; Y up: the model's Z is Y and its Y is -Z.
    const points = meshes.flatMap((mesh) => [...mesh.points])
    const axis = (k: number) => points.filter((_, index) => index % 3 === k).map((value) => value * 0.001)
    const box = measureMesh(model).boundingBox
    const within = (values: number[], from: number, to: number) => {
      expect(Math.min(...values)).toBeCloseTo(from / 1000, 6)
      expect(Math.max(...values)).toBeCloseTo(to / 1000, 6)
    }
    within(axis(0), box.minX, box.maxX)
    within(axis(1), box.minZ, box.maxZ)
    within(axis(2), -box.maxY, -box.minY)
    // sRGB red and OpenSCAD's default yellow, as linear colours.
    expect(materials.map((material) => material.diffuseColor?.map((channel) => Number(channel.toFixed(3))))).toEqual([
      [1, 0, 0],
      [0.947, 0.68, 0.025],
    ])
  })

  it('writes a large model in slices, the event loop free between them, to the same bytes', async () => {
    // A grid of 40,000 triangles: more numbers than one slice holds.
    const side = 141
    const positions = new Float32Array(side * side * 3).map((_, i) => (i % 3 === 2 ? 0 : Math.floor(i / 3) % 97))
    const indices: number[] = []
    for (let row = 0; row < side - 1; row++)
      for (let column = 0; column < side - 1; column++) {
        const at = row * side + column
        indices.push(at, at + 1, at + side, at + 1, at + side + 1, at + side)
      }
    const large = { parts: [{ color: [1, 1, 1, 1] as const, positions, indices: new Uint32Array(indices) }] }
    let turns = 0
    const counting = setInterval(() => turns++, 0)
    const sliced = await writeUsdzInSlices(large)
    clearInterval(counting)
    expect(turns).toBeGreaterThan(0)
    expect(sliced).toEqual(writeUsdz(large))
    const { meshes } = await readUsdz(sliced)
    expect(meshes[0]!.faceVertexIndices).toEqual(new Uint32Array(indices))
  })
})
