import { z } from 'zod'
import { ZDateTime, ZSessionKey } from '@/lib/api/schemas'
import { ZModelQuery, ZParameterSet } from '@/lib/sessions/schemas'
import { ZPrintReport, ZQuote, ZSliceReport } from '@/lib/manufacturing/schemas'

export const ZSnapshotParams = z.object({ snapshotId: z.uuid() })

export const ZSnapshot = z
  .object({
    id: z.uuid(),
    sessionId: z.uuid().describe('the session it was taken of, which may have changed or gone since'),
    configuratorId: z.uuid(),
    applicationId: z.uuid().nullable(),
    release: z
      .number()
      .int()
      .nullable()
      .describe(
        "the number of the configurator's release the session built; null for the draft (a configurator never published)",
      ),
    createdAt: ZDateTime,
    contentHash: z
      .string()
      .describe('sha256 of everything frozen: two snapshots with the same hash build the same model'),
    engine: z.object({
      cadType: z.string(),
      cadVersion: z.string(),
      build: z.string().describe('the engine and its version that build it, as this server names them'),
    }),
    parameters: ZParameterSet.describe('the values as they were, with their definitions'),
    print: ZPrintReport.describe('weight, price and printability of the final quality, as they were'),
    slice: ZSliceReport.nullable().describe(
      "PrusaSlicer's slice of the final quality, waited for when the snapshot was taken; null in one taken before slicing",
    ),
    quote: ZQuote.describe(
      "the order's weight, print time and price, frozen: the slicer's, or the geometry's (marked so) when the slice failed or is not made; it never changes",
    ),
    modelKey: z
      .string()
      .describe(
        "replaces the headers on this snapshot's model and image (not its finalized model), as a session's modelKey does",
      ),
  })
  .describe(
    'a configuration frozen for an order: later changes to its session, configurator or the server never change it',
  )
export type SnapshotDto = z.infer<typeof ZSnapshot>

export const ZSnapshotModelQuery = ZModelQuery.extend({
  key: ZSessionKey.optional().describe(
    "the snapshot's modelKey; replaces the Authorization and X-API-KEY headers (not on finalizedmodel)",
  ),
})

export const ZSnapshotFileQuery = z.object({ key: ZSessionKey.optional().describe("the snapshot's modelKey") })
