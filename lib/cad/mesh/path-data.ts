import type { Contour } from '@/lib/cad/mesh/flat-outline'

// SVG path data (`M 0 0 L 10 0 A 5 5 0 0 1 ...Z`) as closed polylines: how both engines hand over
// 2D shapes (OpenSCAD's SVG export, replicad's drawings). Arcs and curves become segments no
// farther than `tolerance` from the true curve. Unclosed subpaths are closed: they are outlines.

const COMMAND = /([MmLlHhVvAaCcQqZz])([^MmLlHhVvAaCcQqZz]*)/g
const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g
const ARGUMENTS: Record<string, number> = { M: 2, L: 2, H: 1, V: 1, A: 7, C: 6, Q: 4, Z: 0 }

type Point = [number, number]

/** Segments for an arc of `radius` through `angle` radians, each within `tolerance` of it. */
function segmentsFor(radius: number, angle: number, tolerance: number): number {
  const step = radius > tolerance ? 2 * Math.acos(1 - tolerance / radius) : Math.PI / 2
  return Math.min(1000, Math.max(1, Math.ceil(Math.abs(angle) / step)))
}

/** The points of an SVG arc after `from`, `to` included (the endpoint parametrization of SVG's appendix B.2.4). */
function arc(from: Point, [rx, ry, rotation, large, sweep, x, y]: number[], tolerance: number): Point[] {
  const [x1, y1] = from
  let [a, b] = [Math.abs(rx!), Math.abs(ry!)]
  if (a === 0 || b === 0 || (x1 === x && y1 === y)) return [[x!, y!]]
  const phi = (rotation! * Math.PI) / 180
  const [cos, sin] = [Math.cos(phi), Math.sin(phi)]
  const dx = (x1 - x!) / 2
  const dy = (y1 - y!) / 2
  const px = cos * dx + sin * dy
  const py = -sin * dx + cos * dy
  const scale = (px * px) / (a * a) + (py * py) / (b * b)
  if (scale > 1) [a, b] = [a * Math.sqrt(scale), b * Math.sqrt(scale)]
  const sign = large === sweep ? -1 : 1
  const numerator = a * a * b * b - a * a * py * py - b * b * px * px
  const factor = sign * Math.sqrt(Math.max(0, numerator / (a * a * py * py + b * b * px * px)))
  const cx = (factor * a * py) / b
  const cy = (-factor * b * px) / a
  const angleOf = (ux: number, uy: number) => Math.atan2(uy, ux)
  const start = angleOf((px - cx) / a, (py - cy) / b)
  let delta = angleOf((-px - cx) / a, (-py - cy) / b) - start
  if (sweep && delta < 0) delta += 2 * Math.PI
  if (!sweep && delta > 0) delta -= 2 * Math.PI
  const count = segmentsFor(Math.max(a, b), delta, tolerance)
  const [mx, my] = [(x1 + x!) / 2, (y1 + y!) / 2]
  return Array.from({ length: count }, (_, index): Point => {
    if (index === count - 1) return [x!, y!]
    const t = start + (delta * (index + 1)) / count
    const [ex, ey] = [a * Math.cos(t) + cx, b * Math.sin(t) + cy]
    return [cos * ex - sin * ey + mx, sin * ex + cos * ey + my]
  })
}

/** The points of a Bézier curve after its first control point, the last included. */
function bezier(points: Point[], tolerance: number): Point[] {
  const length = points.slice(1).reduce((sum, [x, y], i) => sum + Math.hypot(x - points[i]![0], y - points[i]![1]), 0)
  const count = Math.min(1000, Math.max(2, Math.ceil(Math.sqrt(length / tolerance))))
  return Array.from({ length: count }, (_, index): Point => {
    const t = (index + 1) / count
    let level = points
    while (level.length > 1)
      level = level
        .slice(1)
        .map(([x, y], i) => [level[i]![0] + (x - level[i]![0]) * t, level[i]![1] + (y - level[i]![1]) * t])
    return level[0]!
  })
}

/** Closed polylines of the path data; throws on data that is not a path. */
export function contoursOfPathData(data: string, tolerance = 0.01): Contour[] {
  const contours: Contour[] = []
  let contour: Point[] = []
  let current: Point = [0, 0]
  let start: Point = [0, 0]
  const close = () => {
    const last = contour.at(-1)
    if (last && contour.length > 1 && last[0] === contour[0]![0] && last[1] === contour[0]![1]) contour.pop()
    if (contour.length >= 3) contours.push(contour)
    contour = []
  }
  for (const [, letter, rest] of data.matchAll(COMMAND)) {
    const command = letter!.toUpperCase()
    const relative = letter !== command
    const numbers = (rest!.match(NUMBER) ?? []).map(Number)
    const size = ARGUMENTS[command]!
    if (size === 0) {
      close()
      current = start
      continue
    }
    if (numbers.length === 0 || numbers.length % size !== 0)
      throw new Error(`path data: ${letter} needs ${size} numbers at a time`)
    for (let offset = 0; offset < numbers.length; offset += size) {
      const args = numbers.slice(offset, offset + size)
      const [ox, oy] = relative ? current : [0, 0]
      const moving = command === 'M' && offset === 0
      if (moving) {
        close()
        current = start = [args[0]! + ox, args[1]! + oy]
        contour.push(current)
        continue
      }
      // A subpath drawn on after Z starts where the closed one did.
      if (contour.length === 0) contour.push(current)
      let points: Point[]
      if (command === 'M' || command === 'L') points = [[args[0]! + ox, args[1]! + oy]]
      else if (command === 'H') points = [[args[0]! + ox, current[1]]]
      else if (command === 'V') points = [[current[0], args[0]! + oy]]
      else if (command === 'A') points = arc(current, [...args.slice(0, 5), args[5]! + ox, args[6]! + oy], tolerance)
      else {
        const controls: Point[] = []
        for (let i = 0; i < args.length; i += 2) controls.push([args[i]! + ox, args[i + 1]! + oy])
        points = bezier([current, ...controls], tolerance)
      }
      contour.push(...points)
      current = points.at(-1)!
    }
  }
  close()
  return contours
}
