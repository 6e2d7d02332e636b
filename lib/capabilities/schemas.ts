import { z } from 'zod'
import { CAD_VERSIONS_NOTE } from '@/lib/cad/engines'

export const ZCapabilities = z.object({
  cad: z.array(
    z.object({
      type: z.string(),
      versions: z.array(z.string()).describe(CAD_VERSIONS_NOTE),
      default: z.string().describe('the version new configurators get: the fastest present'),
      modelTypes: z
        .array(z.string())
        .describe(
          'the `type`s a model of this system is downloaded as (GET .../model, .../finalizedmodel): a 3D model as a mesh (STEP too for a B-rep system), a 2D model as svg or dxf',
        ),
    }),
  ),
  renderers: z.array(z.object({ type: z.string(), versions: z.array(z.string()) })),
})
export type Capabilities = z.infer<typeof ZCapabilities>
