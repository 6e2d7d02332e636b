import fs from 'node:fs'

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

export function describe(samples: number[]): { p50: number; p95: number } {
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) }
}

export const ms = (value: number) => `${value.toFixed(1)} ms`

/** `run` timed `runs` times after `warmUp` untimed runs, one at a time. */
export async function timeRuns(run: () => Promise<void>, runs: number, warmUp: number): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) await run()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    await run()
    samples.push(performance.now() - started)
  }
  return samples
}

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

/** Whether the production build a real server needs is there; says the section is skipped when not. */
export function hasProductionBuild(what: string): boolean {
  if (fs.existsSync('.next/BUILD_ID')) return true
  console.log(`\nSkipped: ${what} needs the production build; run \`npm run build\` first.`)
  return false
}
