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

/** Whether the production build a real server needs is there; says the section is skipped when not. */
export function hasProductionBuild(what: string): boolean {
  if (fs.existsSync('.next/BUILD_ID')) return true
  console.log(`\nSkipped: ${what} needs the production build; run \`npm run build\` first.`)
  return false
}
