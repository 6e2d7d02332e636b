import { z } from 'zod'
import { ZDateTime } from '@/lib/api/schemas'

export const WEBHOOK_EVENTS = ['snapshot.created'] as const

export const ZSetWebhook = z.object({
  url: z
    .string()
    .max(2000)
    .describe('http(s) URL on a public address of another server, or a host:port in WEBHOOK_ALLOWED_HOSTS'),
})

export const ZWebhook = z.object({
  url: z.string().nullable().describe('null: no webhook'),
  secret: z.string().nullable().describe('`whsec_...`: verify `webhook-signature` with it (Standard Webhooks)'),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
})

export const ZWebhookDelivery = z.object({
  id: z.string().describe('the webhook-id header, the same on every attempt'),
  eventType: z.enum(WEBHOOK_EVENTS),
  status: z.enum(['pending', 'delivered', 'failed']).describe('failed: no attempt left'),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable().describe("the receiver's HTTP status; null when it did not answer"),
  lastResponse: z.string().describe("the start of the receiver's answer, or why none came"),
  lastAttemptAt: ZDateTime.nullable(),
  nextAttemptAt: ZDateTime.nullable(),
  createdAt: ZDateTime,
})

/** The body of every webhook POST (Standard Webhooks' shape). */
export const ZWebhookEvent = z.object({
  type: z.enum(WEBHOOK_EVENTS),
  timestamp: z.string().describe('ISO 8601'),
  data: z.record(z.string(), z.unknown()),
})
