import path from 'node:path'
import { SOURCE_MEDIA_TYPES } from '@/lib/cad/engines'

const CONTENT_TYPES: Record<string, string> = {
  ...SOURCE_MEDIA_TYPES,
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.glsl': 'text/x-glsl',
  '.vert': 'text/x-glsl',
  '.frag': 'text/x-glsl',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ktx2': 'image/ktx2',
  '.hdr': 'image/vnd.radiance',
  '.stl': 'model/stl',
  '.3mf': 'model/3mf',
  '.glb': 'model/gltf-binary',
  '.off': 'model/off',
  '.dxf': 'image/vnd.dxf',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.zip': 'application/zip',
}

export function contentTypeFor(fileName: string): string {
  return CONTENT_TYPES[path.extname(fileName).toLowerCase()] ?? 'application/octet-stream'
}
