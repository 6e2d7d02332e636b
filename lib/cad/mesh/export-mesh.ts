import { isFlat, outlineOf } from '@/lib/cad/mesh/flat-outline'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import type { Mesh } from '@/lib/cad/mesh/mesh'
import { write3mf } from '@/lib/cad/mesh/write-3mf'
import { writeGlb } from '@/lib/cad/mesh/write-glb'
import { writeOff } from '@/lib/cad/mesh/write-off'
import { writeDxf } from '@/lib/cad/mesh/write-dxf'
import { writeStl } from '@/lib/cad/mesh/write-stl'
import { writeUsdz, writeUsdzInSlices } from '@/lib/cad/mesh/write-usdz'
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

/**
 * The most triangles an AR file may hold: Apple's and Google's guidance for Quick Look and Scene
 * Viewer is 100,000; past it a phone opens the file slowly or not at all (docs/ar.md).
 */
export const AR_MAX_TRIANGLES = 100_000

/** Whether AR viewers can show the model, and why not (in a customer's words) when they cannot. */
export function arViewOf(mesh: Mesh): { possible: boolean; triangles: number; reason: string | null } {
  const triangles = mesh.parts.reduce((sum, part) => sum + part.indices.length / 3, 0)
  const reason = isFlat(mesh)
    ? 'A flat part, cut from a sheet, has no view in your space.'
    : triangles > AR_MAX_TRIANGLES
      ? `It is too detailed for a phone to show in your space: ${triangles.toLocaleString('en')} triangles, over ${AR_MAX_TRIANGLES.toLocaleString('en')}.`
      : null
  return { possible: reason === null, triangles, reason }
}

/** The files AR viewers open: GLB (Scene Viewer) and USDZ (Quick Look), docs/ar.md. */
export function isArFormat(type: string): type is 'glb' | 'usdz' {
  return type === 'glb' || type === 'usdz'
}

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

function encodingsOf(mesh: Mesh) {
  const formats = encoded.get(mesh) ?? new Map<MeshFormat | DrawingFormat, Uint8Array>()
  encoded.set(mesh, formats)
  return formats
}

/** The mesh as a file of a mesh format, or a 2D model's as a drawing's. */
export function exportMesh(mesh: Mesh, format: MeshFormat | DrawingFormat): { bytes: Uint8Array; contentType: string } {
  const { contentType, write } = FORMATS[format]
  const formats = encodingsOf(mesh)
  const bytes = formats.get(format) ?? write(mesh)
  formats.set(format, bytes)
  return { bytes, contentType }
}

/** Writes the mesh's USDZ ahead of its request, as background work beside customers' requests (writeUsdzInSlices). */
export async function prepareUsdz(mesh: Mesh): Promise<void> {
  const formats = encodingsOf(mesh)
  if (!formats.has('usdz')) formats.set('usdz', await writeUsdzInSlices(mesh))
}
