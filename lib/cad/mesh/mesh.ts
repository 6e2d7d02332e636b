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
  /** How its surface looks in AR files (GLB, USDZ): the scene's material where it maps (lib/render/ar-look.ts), else matte. */
  surface?: Surface
}

/** A physically based surface: 0..1 each. */
export interface Surface {
  metallic: number
  roughness: number
}

/** A part without a scene material that maps: matte, as the viewer shows it. */
export const MATTE: Surface = { metallic: 0, roughness: 0.7 }

/** A model coordinate (millimetres, Z up) as AR files want it, Y up: a rotation about X, so faces keep their winding. */
export function yUp(positions: ArrayLike<number>, i = 0, scale = 1): [number, number, number] {
  return [positions[i]! * scale, positions[i + 2]! * scale, -positions[i + 1]! * scale]
}

/** glTF's and USD's colours are linear; a model's are sRGB. */
export function linear(channel: number): number {
  return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
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
