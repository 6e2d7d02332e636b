import { CAD_ENGINES } from '@/lib/cad/engines'
import type { Capabilities } from '@/lib/capabilities/schemas'
import { RENDERER_TYPES, RENDERER_VERSIONS } from '@/lib/renderers/renderer-types'

export function getCapabilities(): Capabilities {
  return {
    cad: Object.entries(CAD_ENGINES).map(([type, versions]) => ({ type, versions: [...versions] })),
    renderers: RENDERER_TYPES.map((type) => ({ type, versions: [...RENDERER_VERSIONS] })),
  }
}
