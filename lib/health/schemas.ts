import { z } from 'zod'

const ZPart = z.object({ ok: z.literal(true), latencyMs: z.number() })

export const ZHealth = z.object({
  status: z.literal('ok'),
  database: ZPart.extend({ kind: z.enum(['postgresql', 'embedded']) }),
  storage: ZPart.extend({ kind: z.enum(['disk', 's3']) }),
  queue: z.object({
    kind: z
      .enum(['postgresql', 'in-process'])
      .describe('where CAD builds wait: the PostgreSQL job queue, or this process'),
    queued: z.number().int().describe('builds waiting for a worker'),
    running: z.number().int(),
  }),
  workers: z
    .array(
      z.object({ id: z.string(), slots: z.number().int(), running: z.number().int(), lastBeatMsAgo: z.number().int() }),
    )
    .describe('live build worker processes (PostgreSQL only; with the embedded database this process builds)'),
})
export type Health = z.infer<typeof ZHealth>
