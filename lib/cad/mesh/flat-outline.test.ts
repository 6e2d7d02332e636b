import { XMLParser } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import { contourLength, flatArea, flatPart, isFlat, outlineOf } from '@/lib/cad/mesh/flat-outline'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import { contoursOfPathData } from '@/lib/cad/mesh/path-data'
import { writeSvg } from '@/lib/cad/mesh/write-svg'

const GREY = [0.5, 0.5, 0.5, 1] as const

describe('flat models', () => {
  // A 40 × 20 plate with a 10 × 10 window, and an island inside the window.
  const plate = flatPart(
    [
      [
        [0, 0],
        [40, 0],
        [40, 20],
        [0, 20],
      ],
      [
        [5, 5],
        [15, 5],
        [15, 15],
        [5, 15],
      ],
      [
        [8, 8],
        [12, 8],
        [12, 12],
        [8, 12],
      ],
    ],
    GREY,
  )
  const mesh = { parts: [plate] }

  it('triangulates outer boundaries and holes by nesting, facing up, at z = 0', () => {
    expect(isFlat(mesh)).toBe(true)
    expect(flatArea(mesh)).toBeCloseTo(800 - 100 + 16, 6)
    expect(measureMesh(mesh).boundingBox).toEqual({ minX: 0, maxX: 40, minY: 0, maxY: 20, minZ: 0, maxZ: 0 })
    expect(measureMesh(mesh).volume).toBe(0)
  })

  it('gives back its contours from the boundary: their lengths are the cuts', () => {
    const lengths = outlineOf(mesh)
      .map(contourLength)
      .sort((a, b) => a - b)
    expect(lengths).toEqual([16, 40, 120])
  })

  it('is no 3D model', () => {
    const cube = {
      parts: [{ ...plate, positions: plate.positions.map((value, index) => (index % 3 === 2 ? 1 : value)) }],
    }
    expect(isFlat(cube)).toBe(false)
  })

  it('writes SVG in millimetres that an XML parser reads, each contour closed', () => {
    const svg = new TextDecoder().decode(writeSvg(outlineOf(mesh), measureMesh(mesh).boundingBox))
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(svg) as {
      svg: { '@_width': string; '@_height': string; path: { '@_d': string } }
    }
    expect([parsed.svg['@_width'], parsed.svg['@_height']]).toEqual(['40mm', '20mm'])
    const contours = contoursOfPathData(parsed.svg.path['@_d'])
    expect(contours.map(contourLength).sort((a, b) => a - b)).toEqual([16, 40, 120])
    expect(parsed.svg.path['@_d'].match(/Z/g)).toHaveLength(3)
  })
})

describe('contoursOfPathData', () => {
  it('reads lines, relative moves and arcs within the tolerance', () => {
    // A 20 mm circle as two arcs, and a square drawn relative.
    const [circle, square] = contoursOfPathData(
      'M 10 0 A 10 10 0 0 1 -10 0 A 10 10 0 0 1 10 0 Z m 20 0 h 5 v 5 h -5 z',
      0.001,
    )
    expect(contourLength(circle!) / (2 * Math.PI * 10)).toBeCloseTo(1, 4)
    expect(circle!.every(([x, y]) => Math.abs(Math.hypot(x, y) - 10) < 1e-9)).toBe(true)
    expect(square).toEqual([
      [30, 0],
      [35, 0],
      [35, 5],
      [30, 5],
    ])
  })

  it('refuses data that is no path', () => {
    expect(() => contoursOfPathData('M 1 L 2 3')).toThrow(/M needs 2 numbers/)
  })
})
