import { AppError } from '@/lib/api/errors'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import type { Health } from '@/lib/health/schemas'
import { queueCounts } from '@/lib/queue/build-queue'
import { liveWorkers } from '@/lib/queue/worker-heartbeat'
import { storage } from '@/lib/storage/object-storage'
import { logger } from '@/lib/log'

const PROBE_KEY = 'health-probe'

async function timed(part: string, probe: () => Promise<unknown>): Promise<{ ok: true; latencyMs: number }> {
  const startedAt = performance.now()
  try {
    await probe()
  } catch (error) {
    // The answer names the part; its address and the driver's words stay in the log.
    logger.error({ err: error, part }, `health: the ${part} cannot be reached`)
    throw new AppError('service_unavailable', `The ${part} cannot be reached`)
  }
  return { ok: true, latencyMs: Math.round(performance.now() - startedAt) }
}

/** What this instance reaches: 503 naming the database or the storage when either is down. */
export async function getHealth(): Promise<Health> {
  const [database, stored] = await Promise.all([
    timed('database', () => db.$queryRaw`SELECT 1`),
    // A write and a read: a store that answers but refuses writes is down for us too.
    timed('storage', async () => {
      await storage.put(PROBE_KEY, new TextEncoder().encode(new Date().toISOString()))
      await storage.readBuffer(PROBE_KEY)
    }),
  ])
  const onPostgres = env.DATABASE_URL !== undefined
  const [counts, workers] = onPostgres
    ? await Promise.all([queueCounts(), liveWorkers()])
    : [{ queued: 0, running: 0 }, []]
  return {
    status: 'ok',
    database: { ...database, kind: onPostgres ? 'postgresql' : 'embedded' },
    storage: { ...stored, kind: env.S3_BUCKET ? 's3' : 'disk' },
    queue: { kind: onPostgres ? 'postgresql' : 'in-process', ...counts },
    workers: workers.map((worker) => ({
      id: worker.id,
      slots: worker.slots,
      running: worker.running.length,
      lastBeatMsAgo: Date.now() - worker.beatAt.getTime(),
    })),
  }
}
