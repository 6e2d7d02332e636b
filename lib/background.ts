type Work = (signal: AbortSignal) => Promise<unknown>

interface Slot {
  /** The newest work asked for, by id; older waiting work is dropped. */
  next?: { id: string; work: Work }
  runningId?: string
  /** Aborted when newer work is asked for: work that can stop (it reads the signal) does. */
  running?: AbortController
  timer?: NodeJS.Timeout
}

/** How long a key stays quiet before its work starts: a customer moving a slider starts none. */
const SETTLE_MS = 1500

const slots = new Map<string, Slot>()

/**
 * Work nobody waits for, one at a time per key, started once no other work was asked for a
 * moment: only the newest work waits, so a customer changing values one after another starts
 * it once they pause, and their builds never share the cores with it meanwhile. Work that reads
 * its signal stops when newer work is asked for. Failures are dropped: whoever needs the result
 * asks for it again.
 */
export function inBackground(key: string, id: string, work: Work): void {
  const slot = slots.get(key) ?? {}
  slots.set(key, slot)
  // Asked again for what waits or runs (a page polling for it): nothing changed, the wait goes on.
  if (slot.next?.id === id || (!slot.next && slot.runningId === id)) return
  slot.next = { id, work }
  slot.running?.abort()
  if (slot.runningId === undefined) settle(key, slot)
}

function settle(key: string, slot: Slot): void {
  clearTimeout(slot.timer)
  slot.timer = setTimeout(() => void runNext(key, slot), SETTLE_MS)
  slot.timer.unref()
}

async function runNext(key: string, slot: Slot): Promise<void> {
  const { id, work } = slot.next!
  slot.next = undefined
  slot.runningId = id
  slot.running = new AbortController()
  await work(slot.running.signal).catch(() => {})
  slot.runningId = undefined
  slot.running = undefined
  if (slot.next) settle(key, slot)
  else slots.delete(key)
}
