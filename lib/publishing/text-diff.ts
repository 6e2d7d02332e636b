import 'server-only'
import path from 'node:path'
import { Worker } from 'node:worker_threads'

// Diffs of a release comparison: the work grows with the square of the changed lines (12,000
// changed lines took 75 s), so it runs in a worker thread with a time budget, and at most two
// run at once. A pair not diffed within the budget is null.

const WORKER = path.join(process.cwd(), 'lib/publishing/diff-worker.mjs')

/** What all the diffs of one comparison may take together. */
export const DIFF_BUDGET_MS = 3_000
/** A worker still busy this long after its budget is stopped (jsdiff's timeout is checked between steps). */
const GRACE_MS = 2_000
const MAX_RUNNING = 2

export interface TextPair {
  oldName: string
  newName: string
  oldText: string
  newText: string
}

let running = 0
const waiting: (() => void)[] = []

async function takeTurn(): Promise<() => void> {
  if (running >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve))
  running++
  return () => {
    running--
    waiting.shift()?.()
  }
}

/** Unified diffs of each pair, in order; null for each pair the budget did not cover. */
export async function diffTexts(pairs: TextPair[]): Promise<(string | null)[]> {
  if (pairs.length === 0) return []
  const release = await takeTurn()
  const worker = new Worker(WORKER, { workerData: { pairs, budgetMs: DIFF_BUDGET_MS } })
  const stop = setTimeout(() => void worker.terminate(), DIFF_BUDGET_MS + GRACE_MS)
  try {
    return await new Promise<(string | null)[]>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
      worker.once('exit', () => resolve(pairs.map(() => null)))
    })
  } finally {
    clearTimeout(stop)
    void worker.terminate()
    release()
  }
}
