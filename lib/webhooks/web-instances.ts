import { randomUUID } from 'node:crypto'
import os from 'node:os'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { onShutdown } from '@/lib/shutdown'

// Every web instance of a deployment on PostgreSQL writes where it serves (its machine's name,
// addresses and port) and beats while it runs, so that a worker on any machine knows which
// addresses are this server: webhooks never go there, whatever WEBHOOK_ALLOWED_HOSTS lists.

const BEAT_MS = 10_000
/** An instance not heard of for this long has stopped. */
const GONE_AFTER_MS = 3 * BEAT_MS

export interface WebInstanceAddress {
  hostname: string
  addresses: string[]
  port: number
}

function ownAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal)
    .map((entry) => entry.address.split('%')[0]!)
}

/** Writes this web instance into the deployment's list until it shuts down; nothing on the embedded database, which has one. */
export async function registerWebInstance(port: number): Promise<void> {
  if (!env.DATABASE_URL) return
  const id = randomUUID()
  const row = { hostname: os.hostname(), addresses: ownAddresses(), port }
  await db.webInstance.create({ data: { id, ...row } })
  const beat = () => db.webInstance.upsert({ where: { id }, create: { id, ...row }, update: { beatAt: new Date() } })
  const timer = setInterval(() => void beat().catch(() => {}), BEAT_MS)
  timer.unref()
  onShutdown(async () => {
    clearInterval(timer)
    await db.webInstance.delete({ where: { id } }).catch(() => {})
  })
}

/** The deployment's live web instances, read at each use (a registration, a delivery attempt); this process's own port always among them. */
export async function webInstances(): Promise<WebInstanceAddress[]> {
  const self = { hostname: os.hostname(), addresses: ownAddresses(), port: env.PORT }
  if (!env.DATABASE_URL) return [self]
  const others = await db.webInstance.findMany({
    where: { beatAt: { gt: new Date(Date.now() - GONE_AFTER_MS) } },
    select: { hostname: true, addresses: true, port: true },
  })
  return [self, ...others]
}
