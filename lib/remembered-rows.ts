import { listen, notify, onReconnect } from '@/lib/notifications'
import { processSingleton } from '@/lib/process-singleton'

interface Limits {
  entries: number
  /** A row older than this is read again. */
  maxAgeMs: number
}

/**
 * Rows that nearly every request reads and that rarely change (a token's, a configurator's),
 * remembered in this process. Whoever changes what they say calls `forget()`: every instance
 * forgets the rows of every kind on the same channel (NOTIFY), all of them or those whose key
 * names an id (keys are ids joined by `:`), and a lost notification connection forgets all.
 * A row read while a forget happened is not remembered.
 */
export class RememberedRows<T> {
  private readonly rows = new Map<string, { value: T; readAt: number }>()
  private generation = 0
  private listening?: Promise<void>

  constructor(
    readonly channel: string,
    private readonly limits: Limits,
  ) {}

  /** The remembered row of `key`, else `read()`; nothing (null) is not remembered. */
  async get(key: string, read: () => Promise<T | null>): Promise<T | null> {
    const known = this.rows.get(key)
    if (known && Date.now() - known.readAt < this.limits.maxAgeMs) return known.value
    await this.listen()
    const generation = this.generation
    const value = await read()
    if (value !== null && generation === this.generation) this.remember(key, value)
    return value
  }

  /** Forgets the rows whose key names `id` (every row when empty) of each kind on the channel, here at once and on every other instance. */
  async forget(id = ''): Promise<void> {
    forgetChannel(this.channel, id)
    await notify(this.channel, id)
  }

  private remember(key: string, value: T): void {
    this.rows.delete(key)
    this.rows.set(key, { value, readAt: Date.now() })
    for (const oldest of this.rows.keys()) {
      if (this.rows.size <= this.limits.entries) break
      this.rows.delete(oldest)
    }
  }

  forgetHere(id: string): void {
    if (id === '') this.rows.clear()
    else for (const key of this.rows.keys()) if (key.split(':').includes(id)) this.rows.delete(key)
    this.generation++
  }

  private listen(): Promise<void> {
    this.listening ??= listen(this.channel, (id) => forgetChannel(this.channel, id)).then(() =>
      onReconnect(() => forgetChannel(this.channel, '')),
    )
    this.listening.catch(() => (this.listening = undefined))
    return this.listening
  }
}

const kinds = processSingleton('rememberedRows', () => new Map<string, RememberedRows<unknown>>())

function forgetChannel(channel: string, id: string): void {
  for (const rows of kinds.values()) if (rows.channel === channel) rows.forgetHere(id)
}

/** The process's remembered rows of a kind, forgotten with every kind that shares `channel` (a NOTIFY channel of ours). */
export function rememberedRows<T>(kind: string, channel: string, limits: Limits): RememberedRows<T> {
  if (!kinds.has(kind)) kinds.set(kind, new RememberedRows<unknown>(channel, limits))
  return kinds.get(kind) as RememberedRows<T>
}
