import { describe, expect, it } from 'vitest'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import { parseOff } from '@/lib/cad/mesh/parse-off'
import { BOX_AND_CUBE_OFF } from '@/lib/cad/mesh/test-meshes'

const YELLOW = [249 / 255, 215 / 255, 44 / 255, 1]

describe('parseOff', () => {
  it('splits an OpenSCAD export into one compacted part per colour, in order of first appearance', () => {
    const mesh = parseOff(BOX_AND_CUBE_OFF)
    expect(mesh.parts.map((part) => part.color)).toEqual([[1, 0, 0, 1], YELLOW])
    const [box, cube] = mesh.parts
    expect(box!.positions.length / 3).toBe(8)
    expect(box!.indices.length / 3).toBe(12) // six quads
    expect(cube!.positions.length / 3).toBe(8)
    expect(cube!.indices.length / 3).toBe(12)
    expect(Math.max(...cube!.indices)).toBe(7)
    expect([...cube!.positions.slice(0, 3)]).toEqual([20, 0, 0])

    expect(measureMesh({ parts: [box!] }).volume).toBeCloseTo(1000, 9)
    expect(measureMesh(mesh)).toEqual({
      boundingBox: { minX: 0, maxX: 23, minY: 0, maxY: 20, minZ: 0, maxZ: 5 },
      volume: expect.closeTo(1027, 9),
    })
  })

  it('fan-triangulates polygons', () => {
    const mesh = parseOff('OFF 5 1 0\n0 0 0\n1 0 0\n2 1 0\n1 2 0\n0 1 0\n5 0 1 2 3 4\n')
    expect([...mesh.parts[0]!.indices]).toEqual([0, 1, 2, 0, 2, 3, 0, 3, 4])
  })

  it('accepts COFF, counts on their own line, comments, CRLF and per-vertex colours', () => {
    const text =
      '# made by hand\r\nCOFF\r\n3 1 0 # counts\r\n0 0 0 1 1 1 1\r\n1 0 0 1 1 1 1\r\n0 1 0 1 1 1 1\r\n3 0 1 2\r\n'
    const mesh = parseOff(text)
    expect(mesh.parts).toHaveLength(1)
    expect([...mesh.parts[0]!.positions]).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0])
  })

  it('puts explicitly default-coloured, uncoloured and cut-by-uncoloured (#9DCB51) faces in one part, and reads alpha', () => {
    const text =
      'OFF 3 4 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 2 1 249 215 44\n3 0 1 2 0 0 255 128\n3 0 2 1 157 203 81\n'
    const mesh = parseOff(text)
    expect(mesh.parts.map((part) => part.color)).toEqual([YELLOW, [0, 0, 1, 128 / 255]])
    expect(mesh.parts[0]!.indices).toHaveLength(9)
  })

  it.each([
    ['', /unexpected end of input/],
    ['PLY 0 0 0', /header/],
    ['OFF x 0 0', /bad vertex count/],
    ['OFF 3 1 0\n0 0 0\n1 0 0\n3 0 1 2', /vertex 2 needs 3 values/],
    ['OFF 3 0 0\n0 0 0\n1 0 0', /end of input, expected vertex 2/],
    ['OFF 1 0 0\n0 NaN 0', /non-numeric/],
    ['OFF 1 0 0\n0 0', /needs 3 values/],
    ['COFF 1 0 0\n0 0 0', /needs 6 or 7 values/],
    ['OFF 3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3', /outside 0\.\.2/],
    ['OFF 3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 -1', /outside/],
    ['OFF 3 1 0\n0 0 0\n1 0 0\n0 1 0\n2 0 1', /needs at least 3/],
    ['OFF 3 1 0\n0 0 0\n1 0 0\n0 1 0\n4 0 1 2', /fewer than 4/],
    ['OFF 3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 255 0', /values after its indices/],
    ['OFF 3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 300 0 0', /outside 0\.\.255/],
    ['OFF 3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 2 1', /after the 1 faces/],
  ])('refuses malformed input %j', (text, message) => {
    expect(() => parseOff(text)).toThrow(message)
  })
})
