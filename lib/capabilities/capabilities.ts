import { cadVersions, defaultCadVersion } from '@/lib/cad/engine-versions'
import { CAD_TYPES } from '@/lib/cad/engines'
import type { Capabilities } from '@/lib/capabilities/schemas'
import { RENDERER_TYPES, RENDERER_VERSIONS } from '@/lib/renderers/renderer-types'

export function getCapabilities(): Capabilities {
  return {
    cad: CAD_TYPES.map((type) => ({
      type,
      versions: cadVersions(type).map(({ version }) => version),
      default: defaultCadVersion(type),
    })),
    renderers: RENDERER_TYPES.map((type) => ({ type, versions: [...RENDERER_VERSIONS] })),
  }
}
