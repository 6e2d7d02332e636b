import { outlineOf } from '@/lib/cad/mesh/flat-outline'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import type { Mesh } from '@/lib/cad/mesh/mesh'
import { write3mf } from '@/lib/cad/mesh/write-3mf'
import { writeGlb } from '@/lib/cad/mesh/write-glb'
import { writeOff } from '@/lib/cad/mesh/write-off'
import { writeDxf } from '@/lib/cad/mesh/write-dxf'
import { writeStl } from '@/lib/cad/mesh/write-stl'
import { writeUsdz } from '@/lib/cad/mesh/write-usdz'
import { writeSvg } from '@/lib/cad/mesh/write-svg'

export const MESH_FORMATS = {
  stl: { contentType: 'model/stl', write: writeStl },
  '3mf': { contentType: 'model/3mf', write: write3mf },
  glb: { contentType: 'model/gltf-binary', write: writeGlb },
  // For AR Quick Look on iOS (docs/ar.md).
  usdz: { contentType: 'model/vnd.usdz+zip', write: writeUsdz },
  off: { contentType: 'model/off', write: (mesh: Mesh) => new TextEncoder().encode(writeOff(mesh)) },
} as const

export type MeshFormat = keyof typeof MESH_FORMATS

export function isMeshFormat(type: string): type is MeshFormat {
  return Object.hasOwn(MESH_FORMATS, type)
}

/** The files of a 2D model (a flat mesh, flat-outline.ts), its outline in millimetres, for cutting. */
export const DRAWING_FORMATS = {
  svg: {
    contentType: 'image/svg+xml',
    write: (mesh: Mesh) => writeSvg(outlineOf(mesh), measureMesh(mesh).boundingBox),
  },
  dxf: { contentType: 'image/vnd.dxf', write: (mesh: Mesh) => writeDxf(outlineOf(mesh)) },
} as const

export type DrawingFormat = keyof typeof DRAWING_FORMATS

export function isDrawingFormat(type: string): type is DrawingFormat {
  return Object.hasOwn(DRAWING_FORMATS, type)
}

const FORMATS = { ...MESH_FORMATS, ...DRAWING_FORMATS }

// Each mesh is encoded once per format: a cached model is asked for again and again, and its
// mesh stays the same object while the build cache keeps it in memory.
const encoded = new WeakMap<Mesh, Map<MeshFormat | DrawingFormat, Uint8Array>>()

/** The mesh as a file of a mesh format, or a 2D model's as a drawing's. */
export function exportMesh(mesh: Mesh, format: MeshFormat | DrawingFormat): { bytes: Uint8Array; contentType: string } {
  const { contentType, write } = FORMATS[format]
  const formats = encoded.get(mesh) ?? new Map<MeshFormat | DrawingFormat, Uint8Array>()
  encoded.set(mesh, formats)
  const bytes = formats.get(format) ?? write(mesh)
  formats.set(format, bytes)
  return { bytes, contentType }
}
