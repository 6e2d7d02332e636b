import 'server-only'
import { Webhook } from 'standardwebhooks'
import { db } from '@/lib/db'
import { metrics } from '@/lib/metrics'
import { sendToPublicUrl } from '@/lib/outbound/fetch-public-url'
import { deliveryAddressRule } from '@/lib/webhooks/webhook-address'

/** Attempts per event: with graphile-worker's back-off (e^attempt s) the last is ~9 hours after the first. */
export const MAX_ATTEMPTS = 10
const RESPONSE_LIMIT = 1000

/** Seconds before attempt `attempts + 1`, as graphile-worker waits: e^min(attempts, 10). */
function backOffSeconds(attempts: number): number {
  return Math.exp(Math.min(attempts, 10))
}

/**
 * One signed POST of a recorded event to the application's webhook as it is now, logged on
 * the delivery. Answers the milliseconds until the next attempt when the receiver did not
 * answer 2xx and attempts are left; null when nothing is left to do (delivered, before or now,
 * no attempt left, or the webhook was removed).
 */
export async function attemptDelivery(deliveryId: string): Promise<number | null> {
  const delivery = await db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { application: true } })
  if (delivery?.status !== 'pending') return null
  const { webhookUrl, webhookSecret } = delivery.application
  const attempts = delivery.attempts + 1
  const now = new Date()
  let answer: { status: number | null; text: string }
  if (!webhookUrl || !webhookSecret) {
    answer = { status: null, text: 'the webhook was removed' }
  } else {
    const signature = new Webhook(webhookSecret).sign(delivery.id, now, delivery.payload)
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Paraform webhooks',
      'webhook-id': delivery.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    }
    answer = await sendToPublicUrl(webhookUrl, {
      method: 'POST',
      headers,
      body: delivery.payload,
      maxBytes: RESPONSE_LIMIT,
      isAllowedAddress: await deliveryAddressRule(new URL(webhookUrl)),
    }).then(
      ({ status, body }) => ({ status, text: body.toString('utf8') }),
      (error: Error) => ({ status: null, text: error.message }),
    )
  }
  const delivered = answer.status !== null && answer.status >= 200 && answer.status < 300
  const last = delivered || attempts >= MAX_ATTEMPTS || !webhookUrl
  const retryInMs = last ? null : backOffSeconds(attempts) * 1000
  metrics.webhookDeliveries.inc({ outcome: delivered ? 'delivered' : last ? 'failed' : 'retrying' })
  await db.webhookDelivery.update({
    where: { id: delivery.id },
    data: {
      attempts,
      lastStatus: answer.status,
      lastResponse: answer.text.slice(0, RESPONSE_LIMIT),
      lastAttemptAt: now,
      status: delivered ? 'delivered' : last ? 'failed' : 'pending',
      nextAttemptAt: retryInMs === null ? null : new Date(now.getTime() + retryInMs),
    },
  })
  return retryInMs
}
