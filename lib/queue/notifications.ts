import pg from 'pg'
import { env } from '@/lib/env'

type Handler = (payload: string) => void

interface Hub {
  client: pg.Client | null
  connecting: Promise<pg.Client> | null
  handlers: Map<string, Set<Handler>>
  /** Called after a lost connection is back: notifications sent meanwhile are gone. */
  onReconnect: Set<() => void>
}

// One listening connection per process, shared by the server and Next's route bundles.
const globalForHub = globalThis as unknown as { paraformNotifications?: Hub }
const hub: Hub = (globalForHub.paraformNotifications ??= { client: null, connecting: null, handlers: new Map(), onReconnect: new Set() })

const RECONNECT_MS = 1000

function connect(): Promise<pg.Client> {
  hub.connecting ??= (async () => {
    const client = new pg.Client({ connectionString: env.DATABASE_URL })
    try {
      await client.connect()
      for (const channel of hub.handlers.keys()) await client.query(`LISTEN ${channel}`)
    } catch (error) {
      hub.connecting = null
      await client.end().catch(() => {})
      throw error
    }
    client.on('notification', ({ channel, payload }) => hub.handlers.get(channel)?.forEach((handler) => handler(payload ?? '')))
    client.on('error', () => reconnect(client))
    client.on('end', () => reconnect(client))
    hub.client = client
    return client
  })()
  return hub.connecting
}

function reconnect(lost: pg.Client): void {
  if (hub.client !== lost) return
  hub.client = null
  hub.connecting = null
  const retry = () =>
    connect().then(
      () => hub.onReconnect.forEach((handler) => handler()),
      () => setTimeout(retry, RECONNECT_MS).unref(),
    )
  retry()
}

/** Calls `handler` with each NOTIFY payload on `channel` (a fixed identifier of ours). */
export async function listen(channel: string, handler: Handler): Promise<void> {
  const isNew = !hub.handlers.has(channel)
  hub.handlers.set(channel, (hub.handlers.get(channel) ?? new Set()).add(handler))
  const client = await connect()
  if (isNew) await client.query(`LISTEN ${channel}`)
}

export function onReconnect(handler: () => void): void {
  hub.onReconnect.add(handler)
}

/** Sends `payload` to every process listening on `channel`, through the shared connection. */
export async function notify(channel: string, payload: string): Promise<void> {
  const client = await connect()
  await client.query('SELECT pg_notify($1, $2)', [channel, payload])
}
