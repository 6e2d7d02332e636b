/** RGBA, each channel 0..1. */
export type Rgba = readonly [number, number, number, number]

/**
 * One part of a model: the triangles of one distinct OpenSCAD `color()`, or one part a replicad
 * model names, numbered in order of first appearance (part 0 is painted by material "0" of the
 * scene settings).
 */
export interface MeshPart {
  color: Rgba
  /** The name the model gives the part, where its CAD system names parts. */
  name?: string
  /** x, y, z per vertex, in millimetres. */
  positions: Float32Array
  /** Three vertex indices per triangle, counter-clockwise seen from outside. */
  indices: Uint32Array
}

export interface Mesh {
  parts: MeshPart[]
}

export interface BoundingBox {
  minX: number
  maxX: number
  minY: number
  maxY: number
  minZ: number
  maxZ: number
}
