import { ShapeUtils, Vector2 } from 'three'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import type { Mesh, MeshPart, Rgba } from '@/lib/cad/mesh/mesh'
import type { PrintMeasures, SolidMeasure } from '@/lib/cad/mesh/printability'

// 2D models: a drawing for a laser cutter or a plotter is a flat mesh at z = 0, the triangulation
// of its outline, so that the viewer, the cache and the GLB take it as they take any model; its
// outline comes back from the mesh's boundary for SVG and DXF (write-svg.ts, write-dxf.ts).

/** A closed polyline: x, y in millimetres, counter-clockwise for an outer boundary, the first point not repeated. */
export type Contour = [number, number][]

/** Whether a model is 2D: it has triangles, and every vertex lies at z = 0. */
export function isFlat(mesh: Mesh): boolean {
  return (
    mesh.parts.some((part) => part.indices.length > 0) &&
    mesh.parts.every((part) => part.positions.every((value, index) => index % 3 !== 2 || value === 0))
  )
}

function signedArea(contour: Contour): number {
  let area = 0
  contour.forEach(([x, y], index) => {
    const [nextX, nextY] = contour[(index + 1) % contour.length]!
    area += x * nextY - nextX * y
  })
  return area / 2
}

function contains(contour: Contour, [x, y]: [number, number]): boolean {
  let inside = false
  for (let i = 0, j = contour.length - 1; i < contour.length; j = i++) {
    const [xi, yi] = contour[i]!
    const [xj, yj] = contour[j]!
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

/**
 * The contours as one flat part: each contour inside an even number of others is an outer
 * boundary, each inside an odd number a hole of the smallest one around it (as SVG's even-odd
 * rule and OpenSCAD's polygons read them), triangulated facing +Z.
 */
export function flatPart(contours: Contour[], color: Rgba, name?: string): MeshPart {
  const closed = contours.filter((contour) => contour.length >= 3 && signedArea(contour) !== 0)
  const around = closed.map((contour) => closed.filter((other) => other !== contour && contains(other, contour[0]!)))
  const positions: number[] = []
  const indices: number[] = []
  closed.forEach((outer, index) => {
    if (around[index]!.length % 2 === 1) return
    const holes = closed.filter(
      (hole, holeIndex) =>
        around[holeIndex]!.length === around[index]!.length + 1 && around[holeIndex]!.includes(outer),
    )
    const base = positions.length / 3
    const rings = [outer, ...holes]
    for (const ring of rings) for (const [x, y] of ring) positions.push(x, y, 0)
    const toVectors = (ring: Contour) => ring.map(([x, y]) => new Vector2(x, y))
    for (const [a, b, c] of ShapeUtils.triangulateShape(toVectors(outer), holes.map(toVectors))) {
      const [pa, pb, pc] = [a!, b!, c!].map((vertex) => [
        positions[(base + vertex) * 3]!,
        positions[(base + vertex) * 3 + 1]!,
      ])
      const isCounterClockwise =
        (pb![0]! - pa![0]!) * (pc![1]! - pa![1]!) - (pb![1]! - pa![1]!) * (pc![0]! - pa![0]!) > 0
      indices.push(base + a!, ...(isCounterClockwise ? [base + b!, base + c!] : [base + c!, base + b!]))
    }
  })
  return {
    color,
    ...(name !== undefined && { name }),
    positions: Float32Array.from(positions),
    indices: Uint32Array.from(indices),
  }
}

/** The closed contours of a flat mesh: the edges only one triangle has, chained into loops (outer ones counter-clockwise). */
export function outlineOf(mesh: Mesh): Contour[] {
  const contours: Contour[] = []
  for (const { positions, indices } of mesh.parts) {
    const edges = new Map<string, number>()
    for (let t = 0; t < indices.length; t += 3) {
      for (let k = 0; k < 3; k++) {
        const from = indices[t + k]!
        const to = indices[t + ((k + 1) % 3)]!
        // An edge two triangles share runs both ways: it is inside the outline.
        if (edges.delete(`${to},${from}`)) continue
        edges.set(`${from},${to}`, to)
      }
    }
    const next = new Map<number, number>()
    for (const [edge, to] of edges) next.set(Number(edge.split(',')[0]), to)
    while (next.size > 0) {
      const [start] = next.keys()
      const contour: Contour = []
      for (let vertex: number | undefined = start; vertex !== undefined && next.has(vertex);) {
        contour.push([positions[vertex * 3]!, positions[vertex * 3 + 1]!])
        const to = next.get(vertex)
        next.delete(vertex)
        vertex = to
      }
      if (contour.length >= 3) contours.push(contour)
    }
  }
  return contours
}

/** The area a flat mesh covers, in mm². */
export function flatArea(mesh: Mesh): number {
  let area = 0
  for (const { positions: p, indices } of mesh.parts) {
    for (let t = 0; t < indices.length; t += 3) {
      const [a, b, c] = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3]
      area += ((p[b]! - p[a]!) * (p[c + 1]! - p[a + 1]!) - (p[b + 1]! - p[a + 1]!) * (p[c]! - p[a]!)) / 2
    }
  }
  return area
}

/** A flat part as a cutter reads it: no volume, its area, its pieces (outer boundaries) as bodies, no walls. */
function measureFlat(mesh: Mesh): SolidMeasure {
  const pieces = outlineOf(mesh).filter((contour) => signedArea(contour) > 0).length
  const { boundingBox } = measureMesh(mesh)
  return { volume: 0, area: flatArea(mesh), boundingBox, closed: true, bodies: pieces, wall: null, thinnestWalls: [] }
}

/** A 2D model's measures for its print report, which says it is for cutting (lib/manufacturing/print-report.ts). */
export function measureFlatParts(mesh: Mesh): PrintMeasures {
  return { whole: measureFlat(mesh), parts: mesh.parts.map((part) => measureFlat({ parts: [part] })) }
}

/** A contour's length, in millimetres: a cut's length. */
export function contourLength(contour: Contour): number {
  return contour.reduce((sum, [x, y], index) => {
    const [nextX, nextY] = contour[(index + 1) % contour.length]!
    return sum + Math.hypot(nextX - x, nextY - y)
  }, 0)
}
