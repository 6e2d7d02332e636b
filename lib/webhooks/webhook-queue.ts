import 'server-only'
import { run, type Runner } from 'graphile-worker'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { queueLogger, workerUtils } from '@/lib/queue/build-queue'
import { onShutdown } from '@/lib/shutdown'
import { attemptDelivery, MAX_ATTEMPTS } from '@/lib/webhooks/webhook-delivery'
import { logger } from '@/lib/log'
import { processSingleton } from '@/lib/process-singleton'

// Deliveries go through the build queue's job library on PostgreSQL (graphile-worker retries a
// job that throws, after e^attempts seconds), so they survive restarts and any instance with
// workers sends them. On the embedded database one process is all there is: a timer per
// pending delivery, resumed from the delivery log at start-up.

const WEBHOOK_TASK = 'webhook'
/** Deliveries sent at once: each waits for a receiver, not for a core. */
const CONCURRENCY = 4

/** This process's webhook sender on PostgreSQL (where it runs build workers), stopped with the process. */
export function ensureWebhookWorker(): Promise<Runner | null> {
  return processSingleton('webhookRunner', async () => {
    if (!env.DATABASE_URL || env.BUILD_WORKERS === 0) return null
    const runner = await run({
      connectionString: env.DATABASE_URL,
      concurrency: CONCURRENCY,
      noHandleSignals: true,
      pollInterval: 1000,
      logger: queueLogger,
      taskList: {
        [WEBHOOK_TASK]: async (payload) => {
          const { deliveryId } = payload as { deliveryId: string }
          if ((await attemptDelivery(deliveryId)) !== null)
            throw new Error(`webhook delivery ${deliveryId} not accepted; retried later`)
        },
      },
    })
    onShutdown(() => runner.stop())
    return runner
  })
}

/** Sends a recorded delivery now, and again later until it is accepted or out of attempts. */
export async function scheduleDelivery(deliveryId: string): Promise<void> {
  if (env.DATABASE_URL) {
    await (
      await workerUtils()
    ).addJob(WEBHOOK_TASK, { deliveryId }, { jobKey: `webhook:${deliveryId}`, maxAttempts: MAX_ATTEMPTS })
    await ensureWebhookWorker()
    return
  }
  attemptLater(deliveryId, 0)
}

function attemptLater(deliveryId: string, delayMs: number): void {
  setTimeout(
    () =>
      void attemptDelivery(deliveryId)
        .then((retryInMs) => retryInMs !== null && attemptLater(deliveryId, retryInMs))
        .catch((error: unknown) => logger.warn({ err: error, deliveryId }, 'webhook delivery failed')),
    delayMs,
  ).unref()
}

/** At start-up: on PostgreSQL the sender; on the embedded database, timers for the deliveries still pending. */
export async function resumeWebhooks(): Promise<void> {
  if (env.DATABASE_URL) {
    await ensureWebhookWorker()
    return
  }
  const pending = await db.webhookDelivery.findMany({
    where: { status: 'pending' },
    select: { id: true, nextAttemptAt: true },
  })
  for (const { id, nextAttemptAt } of pending)
    attemptLater(id, Math.max(0, (nextAttemptAt?.getTime() ?? 0) - Date.now()))
}
