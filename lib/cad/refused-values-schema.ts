import { z } from 'zod'
import { ZValues } from '@/lib/cad/engine'

// The map of refused values as the API answers it (docs/refused-values.md): a session's, and the
// preparation's at the defaults and each preset.

const ZRefusedRange = z.object({
  from: z.number(),
  to: z.number(),
  message: z.string().describe("the designer's message: the failed assert's, else the model's first error"),
})

const ZParameterRefusals = z.union([
  z.object({
    searched: z.literal(true),
    ranges: z.array(ZRefusedRange).describe('closed ranges of refused numbers, each end exact to the step'),
    options: z
      .array(z.object({ value: z.union([z.number(), z.string(), z.boolean()]), message: z.string() }))
      .describe('refused options of a choice, or a refused boolean'),
  }),
  z.object({
    searched: z.literal(true),
    components: z.array(z.object({ ranges: z.array(ZRefusedRange) })).describe("each vector component's ranges"),
  }),
  z.object({ searched: z.literal(false), reason: z.string() }),
])

/** The reason of a parameter whose search has not ended yet. */
export const SEARCHING_REASON = 'being searched: ask again'

export const ZRefusedValues = z
  .object({
    complete: z
      .boolean()
      .describe(
        'every parameter searched, every sample evaluated and every change bisected to the step; false while searches run or when one ran out of its budget',
      ),
    values: ZValues.describe('the values the map is for: each parameter searched with the others at these'),
    parameters: z.record(z.string(), ZParameterRefusals),
  })
  .describe("where the model refuses values, at the session's values (docs/refused-values.md)")
export type RefusedValues = z.infer<typeof ZRefusedValues>
