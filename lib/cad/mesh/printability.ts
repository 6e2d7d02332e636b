// Relative imports: the build worker threads load this module too.
import { BufferAttribute, BufferGeometry, DoubleSide, Ray, Vector3 } from 'three'
// The package's ES module: its `main` is a CommonJS build whose require('three') makes Node print
// a deprecation warning in every thread that loads it.
import { MeshBVH } from 'three-mesh-bvh/build/index.module.js'
import { measureMesh } from './measure-mesh'
import type { BoundingBox, Mesh, MeshPart } from './mesh'

export interface WallSample {
  /** mm through the solid, straight inwards from `at`. */
  thickness: number
  /** A point on the surface, in model coordinates. */
  at: [number, number, number]
}

/** What manufacturing asks of a solid, in mm, mm² and mm³. */
export interface SolidMeasure {
  volume: number
  area: number
  boundingBox: BoundingBox
  /** Every edge joins exactly two triangles that agree on its direction: a slicer needs no repair. */
  closed: boolean
  /** Separate pieces: sets of triangles that share no vertex with each other. */
  bodies: number
  /**
   * The wall thickness over the thinnest 1 % of the surface: the 1st percentile of the samples,
   * which spread by area. An edge or a tip is thin by nature (a wedge's edge has no thickness) and
   * covers less; a thin wall or plate covers more. Null without triangles.
   */
  wall: WallSample | null
  /** The thinnest walls the samples found, thinnest first: where a model is thin, for any minimum. */
  thinnestWalls: WallSample[]
}

/** Measures for manufacturing of a model's closed parts. */
export interface PrintMeasures {
  /** The model as built, all parts as one. */
  whole: SolidMeasure
  parts: SolidMeasure[]
}

/** `parts` closed, in part order; `union` the model as built. */
export function measurePrint(union: Mesh, parts: Mesh): PrintMeasures {
  return { whole: measureSolid(union), parts: parts.parts.map((part) => measureSolid({ parts: [part] })) }
}

/** Points probed per solid, spread over its surface by area. */
const SAMPLES = 1024
/** Thinnest samples kept: enough to show where a model is too thin for any minimum. */
const KEPT_SAMPLES = 64
/** The share of the surface a wall must cover to count (SolidMeasure.wall). */
const WALL_SHARE = 0.01

export function measureSolid(mesh: Mesh): SolidMeasure {
  const { boundingBox, volume } = measureMesh(mesh)
  const part = weld(mesh)
  const triangleAreas = areas(part)
  const area = triangleAreas.reduce((sum, triangleArea) => sum + triangleArea, 0)
  const { samples, thinnest } = sampleWalls(part, triangleAreas, area)
  const wall = thinnest[Math.floor(WALL_SHARE * samples)] ?? thinnest.at(-1) ?? null
  return { volume, area, boundingBox, closed: isClosed(part), bodies: countBodies(part), wall, thinnestWalls: thinnest }
}

/** All parts as one, vertices at the same position joined. */
export function weld({ parts }: Mesh): Omit<MeshPart, 'color'> {
  const vertexCount = parts.reduce((sum, part) => sum + part.positions.length / 3, 0)
  const positions = new Float32Array(vertexCount * 3)
  // Vertices are the same when their coordinates' bits are: each is stored as float32, -0 made 0.
  const bits = new Uint32Array(positions.buffer)
  const indices = new Uint32Array(parts.reduce((sum, part) => sum + part.indices.length, 0))
  // Open addressing: a slot holds a welded vertex, or -1.
  const slotBits = Math.max(1, Math.ceil(Math.log2(2 * vertexCount + 1)))
  const slots = new Int32Array(2 ** slotBits).fill(-1)
  const mask = slots.length - 1
  let welded = 0
  let next = 0
  for (const part of parts) {
    const local = new Uint32Array(part.positions.length / 3)
    for (let v = 0; v < local.length; v++) {
      const at = welded * 3
      for (let k = 0; k < 3; k++) positions[at + k] = part.positions[v * 3 + k]! + 0
      const x = bits[at]!
      const y = bits[at + 1]!
      const z = bits[at + 2]!
      // Multiplicative hashing, top bits: round numbers' floats end in zero bits.
      let slot = Math.imul(x ^ Math.imul(y ^ Math.imul(z, 0xc2b2ae3d), 0x85ebca77), 0x9e3779b1) >>> (32 - slotBits)
      for (;;) {
        const found = slots[slot]!
        if (found === -1) {
          slots[slot] = welded
          local[v] = welded++
          break
        }
        if (bits[found * 3] === x && bits[found * 3 + 1] === y && bits[found * 3 + 2] === z) {
          local[v] = found
          break
        }
        slot = (slot + 1) & mask
      }
    }
    for (const index of part.indices) indices[next++] = local[index]!
  }
  return { positions: positions.slice(0, welded * 3), indices }
}

function isClosed({ indices }: Omit<MeshPart, 'color'>): boolean {
  if (indices.length === 0) return false
  const directed = new Set<string>()
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const edge = `${indices[t + k]} ${indices[t + ((k + 1) % 3)]}`
      if (directed.has(edge)) return false
      directed.add(edge)
    }
  }
  for (const edge of directed) {
    const [a, b] = edge.split(' ')
    if (!directed.has(`${b} ${a}`)) return false
  }
  return true
}

function countBodies({ positions, indices }: Omit<MeshPart, 'color'>): number {
  const parent = Array.from({ length: positions.length / 3 }, (_, vertex) => vertex)
  const root = (vertex: number): number => {
    while (parent[vertex] !== vertex) vertex = parent[vertex] = parent[parent[vertex]!]!
    return vertex
  }
  for (let t = 0; t < indices.length; t += 3) {
    const a = root(indices[t]!)
    parent[root(indices[t + 1]!)] = a
    parent[root(indices[t + 2]!)] = a
  }
  return new Set(Array.from(indices, root)).size
}

function corner(positions: Float32Array, index: number): Vector3 {
  return new Vector3(positions[index * 3], positions[index * 3 + 1], positions[index * 3 + 2])
}

function areas({ positions, indices }: Omit<MeshPart, 'color'>): number[] {
  const result: number[] = []
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [0, 1, 2].map((k) => corner(positions, indices[t + k]!)) as [Vector3, Vector3, Vector3]
    result.push(b.sub(a).cross(c.sub(a)).length() / 2)
  }
  return result
}

/**
 * Wall thickness by rays: from points spread over the surface by area (the same points for the
 * same mesh), straight inwards to where the ray leaves the solid again. Answers how many rays
 * left the solid, and the thinnest of them.
 */
function sampleWalls(
  { positions, indices }: Omit<MeshPart, 'color'>,
  triangleAreas: number[],
  total: number,
): { samples: number; thinnest: WallSample[] } {
  if (total === 0) return { samples: 0, thinnest: [] }
  const geometry = new BufferGeometry()
  geometry.setAttribute('position', new BufferAttribute(positions, 3))
  geometry.setIndex(new BufferAttribute(indices, 1))
  const bvh = new MeshBVH(geometry)
  let seed = 1
  const random = () => ((seed = (seed * 48271) % 2147483647) - 1) / 2147483646
  const samples: WallSample[] = []
  let [triangle, reached] = [0, triangleAreas[0]!]
  for (let s = 0; s < SAMPLES; s++) {
    // Stratified by area: sample s lies in the triangle that holds the (s + ½)-th share of the surface.
    const target = ((s + 0.5) / SAMPLES) * total
    while (reached < target && triangle < triangleAreas.length - 1) reached += triangleAreas[++triangle]!
    const [a, b, c] = [0, 1, 2].map((k) => corner(positions, indices[triangle * 3 + k]!)) as [Vector3, Vector3, Vector3]
    const inward = b.clone().sub(a).cross(c.clone().sub(a)).normalize().negate()
    let [u, v] = [random(), random()]
    if (u + v > 1) [u, v] = [1 - u, 1 - v]
    const at = a.clone().addScaledVector(b.clone().sub(a), u).addScaledVector(c.clone().sub(a), v)
    const hit = bvh.raycastFirst(new Ray(at.clone().addScaledVector(inward, 1e-4), inward), DoubleSide)
    if (hit) samples.push({ thickness: hit.distance + 1e-4, at: [at.x, at.y, at.z] })
  }
  return { samples: samples.length, thinnest: samples.sort((x, y) => x.thickness - y.thickness).slice(0, KEPT_SAMPLES) }
}
