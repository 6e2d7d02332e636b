import { describe, expect, it } from 'vitest'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import { parseOff } from '@/lib/cad/mesh/parse-off'
import { parseBinaryStl } from '@/lib/cad/mesh/parse-stl'
import { BOX_AND_CUBE_OFF } from '@/lib/cad/mesh/test-meshes'
import { writeStl } from '@/lib/cad/mesh/write-stl'

const corner = (positions: Float32Array, index: number) => [...positions.subarray(index * 3, index * 3 + 3)]

describe('parseBinaryStl', () => {
  it('reads every triangle as one part of the default colour, corners shared where they meet, as OFF has them', () => {
    const off = parseOff(BOX_AND_CUBE_OFF)
    const vertices = new Set(
      off.parts.flatMap(({ positions }) =>
        Array.from({ length: positions.length / 3 }, (_, v) => corner(positions, v).join(' ')),
      ),
    )
    const [part, ...others] = parseBinaryStl(writeStl(off)).parts
    expect(others).toEqual([])
    expect(part!.color).toEqual(parseOff('OFF 3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n').parts[0]!.color)
    expect(part!.positions.length / 3).toBe(vertices.size)
    expect(part!.indices.length).toBe(off.parts.reduce((sum, { indices }) => sum + indices.length, 0))
    const triangles = (mesh: typeof off) =>
      mesh.parts.flatMap(({ positions, indices }) =>
        Array.from({ length: indices.length / 3 }, (_, t) =>
          [0, 1, 2].map((k) => corner(positions, indices[t * 3 + k]!)),
        ),
      )
    expect(triangles({ parts: [part!] })).toEqual(triangles(off))
    expect(measureMesh({ parts: [part!] })).toEqual(measureMesh(off))
  })

  it('reads an empty model as no parts, and refuses a file whose length does not match its triangle count', () => {
    expect(parseBinaryStl(writeStl({ parts: [] }))).toEqual({ parts: [] })
    const bytes = writeStl(parseOff(BOX_AND_CUBE_OFF))
    expect(() => parseBinaryStl(bytes.subarray(0, bytes.length - 1))).toThrow(/expected/)
    expect(() => parseBinaryStl(bytes.subarray(0, 40))).toThrow(/header/)
  })
})
