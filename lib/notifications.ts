import pg from 'pg'
import { env } from '@/lib/env'
import { processSingleton } from '@/lib/process-singleton'

type Handler = (payload: string) => void

interface Hub {
  client: pg.Client | null
  connecting: Promise<pg.Client> | null
  handlers: Map<string, Set<Handler>>
  /** The last query sent on the connection (LISTEN or a notification). */
  sending: Promise<void>
  /** Called after a lost connection is back: notifications sent meanwhile are gone. */
  onReconnect: Set<() => void>
}

// One listening connection per process, shared by the server and Next's route bundles.
const hub = processSingleton<Hub>('notifications', () => ({
  client: null,
  connecting: null,
  handlers: new Map(),
  sending: Promise.resolve(),
  onReconnect: new Set(),
}))

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
    client.on('notification', ({ channel, payload }) => dispatch(channel, payload ?? ''))
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
  const retry = (): Promise<void> =>
    connect().then(
      () => hub.onReconnect.forEach((handler) => handler()),
      () => void setTimeout(() => void retry(), RECONNECT_MS).unref(),
    )
  void retry()
}

function dispatch(channel: string, payload: string): void {
  hub.handlers.get(channel)?.forEach((handler) => handler(payload))
}

/**
 * Calls `handler` with each NOTIFY payload on `channel` (a fixed identifier of ours). Without
 * DATABASE_URL there is one process, and its notifications stay in it.
 */
export async function listen(channel: string, handler: Handler): Promise<void> {
  const isNew = !hub.handlers.has(channel)
  hub.handlers.set(channel, (hub.handlers.get(channel) ?? new Set()).add(handler))
  if (!env.DATABASE_URL) return
  if (isNew) await serially(`LISTEN ${channel}`)
  else await connect()
}

export function onReconnect(handler: () => void): void {
  hub.onReconnect.add(handler)
}

/** Sends `payload` to every process listening on `channel`, through the shared connection. */
export function notify(channel: string, payload: string): Promise<void> {
  if (!env.DATABASE_URL) return Promise.resolve(dispatch(channel, payload))
  return serially('SELECT pg_notify($1, $2)', [channel, payload])
}

/** One query at a time on the shared connection (pg queues them, but no longer wants to), in order. */
function serially(query: string, values?: string[]): Promise<void> {
  const sent = hub.sending
    .catch(() => {})
    .then(async () => {
      await (await connect()).query(query, values)
    })
  hub.sending = sent
  return sent
}
