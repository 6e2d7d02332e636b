import fs from 'node:fs'

// The machine's CPU as /proc/stat counts it: for benchmarks that report how busy it was, and for
// suites that wait until a server they started has settled before they time or drive it.

/** The machine's CPU time so far (all cores, from /proc/stat): busy and idle, in ms. */
export function machineCpu(): { busy: number; idle: number } {
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0] = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .split(/\s+/)
    .slice(1)
    .map(Number)
  const tick = 1000 / 100
  return { busy: (user + nice + system + irq + softirq) * tick, idle: (idle + iowait) * tick }
}

/** Of the machine's CPU time since `before`, the share that was busy. */
export function busyShare(before: { busy: number; idle: number }): number {
  const now = machineCpu()
  const busy = now.busy - before.busy
  return busy / (busy + now.idle - before.idle)
}

/**
 * Waits until the machine spends less than a quarter of its CPU for a second (at most `limitMs`),
 * so that what a process does once after it starts (booting replicad sandboxes, their warm-up
 * builds) is not timed as part of the work measured next; answers how long that took.
 */
export async function settledMachine(limitMs = 60_000): Promise<number> {
  const started = performance.now()
  for (;;) {
    const before = machineCpu()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    if (busyShare(before) < 0.25 || performance.now() - started > limitMs) return performance.now() - started
  }
}
