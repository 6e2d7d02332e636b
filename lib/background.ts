interface Slot {
  /** The newest work asked for while one ran; older waiting work is dropped. */
  next?: () => Promise<unknown>
}

const slots = new Map<string, Slot>()

/**
 * Work nobody waits for, one at a time per key: while one runs, only the newest work asked for
 * waits, so a customer moving a slider starts at most one more. Failures are dropped: whoever
 * needs the result asks for it again.
 */
export function inBackground(key: string, work: () => Promise<unknown>): void {
  const running = slots.get(key)
  if (running) {
    running.next = work
    return
  }
  const slot: Slot = {}
  slots.set(key, slot)
  void (async () => {
    let next: Slot['next'] = work
    while (next) {
      await next().catch(() => {})
      next = slot.next
      slot.next = undefined
    }
    slots.delete(key)
  })()
}
