import { z } from 'zod'

export const ZCapabilities = z.object({
  cad: z.array(z.object({ type: z.string(), versions: z.array(z.string()).describe('oldest first; the newest is the default') })),
  renderers: z.array(z.object({ type: z.string(), versions: z.array(z.string()) })),
})
export type Capabilities = z.infer<typeof ZCapabilities>
