import 'server-only'
import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import { ValidationError } from '@/lib/api/errors'
import { findOwnedApplication, type OwnedApplicationOptions } from '@/lib/applications/applications'
import { db } from '@/lib/db'
import { formatDateTime } from '@/lib/format-date'
import type { Application, Prisma, WebhookDelivery } from '@/lib/generated/prisma/client'
import { WEBHOOK_EVENTS, type ZWebhook, type ZWebhookDelivery } from '@/lib/webhooks/schemas'
import { newWebhookSecret } from '@/lib/webhooks/secret'
import { webhookUrlProblem } from '@/lib/webhooks/webhook-address'
import { forgetTokens } from '@/lib/auth/tokens'

type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]

function toWebhookDto({ webhookUrl, webhookSecret }: Application): z.infer<typeof ZWebhook> {
  return { url: webhookUrl, secret: webhookSecret, events: webhookUrl ? [...WEBHOOK_EVENTS] : [] }
}

export async function getWebhook(owned: OwnedApplicationOptions) {
  return toWebhookDto(await findOwnedApplication(owned))
}

/** Sets the URL once it may be reached; the secret stays across URL changes (receivers keep verifying). */
export async function setWebhook(owned: OwnedApplicationOptions & { url: string; requestHost: string | null }) {
  const application = await findOwnedApplication(owned)
  const problem = await webhookUrlProblem(owned.url, owned.requestHost)
  if (problem) throw new ValidationError([{ path: ['url'], message: problem }])
  const webhookSecret = application.webhookSecret ?? newWebhookSecret()
  const updated = await db.application.update({
    where: { id: application.id },
    data: { webhookUrl: owned.url, webhookSecret },
  })
  // Tokens carry their application: a snapshot records its event only when the application has a webhook.
  await forgetTokens()
  return toWebhookDto(updated)
}

export async function deleteWebhook(owned: OwnedApplicationOptions): Promise<void> {
  const application = await findOwnedApplication(owned)
  await db.application.update({ where: { id: application.id }, data: { webhookUrl: null, webhookSecret: null } })
  await forgetTokens()
}

function toDeliveryDto(delivery: WebhookDelivery): z.infer<typeof ZWebhookDelivery> {
  const { id, eventType, status, attempts, lastStatus, lastResponse, lastAttemptAt, nextAttemptAt, createdAt } =
    delivery
  return {
    id,
    eventType: eventType as WebhookEventType,
    status: status as 'pending' | 'delivered' | 'failed',
    attempts,
    lastStatus,
    lastResponse,
    lastAttemptAt: lastAttemptAt && formatDateTime(lastAttemptAt),
    nextAttemptAt: nextAttemptAt && formatDateTime(nextAttemptAt),
    createdAt: formatDateTime(createdAt),
  }
}

export async function listDeliveries(owned: OwnedApplicationOptions) {
  const application = await findOwnedApplication(owned)
  const deliveries = await db.webhookDelivery.findMany({
    where: { applicationId: application.id },
    orderBy: { createdAt: 'desc' },
    take: 100,
  })
  return deliveries.map(toDeliveryDto)
}

/**
 * Records an event for the application's webhook inside the caller's transaction, so it exists
 * exactly when what it tells of does; answers its id, to schedule once committed (scheduleDelivery).
 */
export async function recordEvent(
  tx: Prisma.TransactionClient,
  applicationId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<string> {
  const id = `msg_${randomUUID().replaceAll('-', '')}`
  const payload = JSON.stringify({ type, timestamp: new Date().toISOString(), data })
  await tx.webhookDelivery.create({ data: { id, applicationId, eventType: type, payload, nextAttemptAt: new Date() } })
  return id
}
