import { cadVersions, defaultCadVersion } from '@/lib/cad/engine-versions'
import { CAD_TYPES, cadSystem } from '@/lib/cad/engines'
import { DRAWING_FORMATS, MESH_FORMATS } from '@/lib/cad/mesh/export-mesh'
import type { Capabilities } from '@/lib/capabilities/schemas'
import { RENDERER_TYPES, RENDERER_VERSIONS } from '@/lib/renderers/renderer-types'

export function getCapabilities(): Capabilities {
  return {
    cad: CAD_TYPES.map((type) => ({
      type,
      versions: cadVersions(type).map(({ version }) => version),
      default: defaultCadVersion(type),
      modelTypes: [
        ...Object.keys(MESH_FORMATS),
        ...Object.keys(cadSystem(type).exportTypes),
        ...Object.keys(DRAWING_FORMATS),
      ],
    })),
    renderers: RENDERER_TYPES.map((type) => ({ type, versions: [...RENDERER_VERSIONS] })),
  }
}
