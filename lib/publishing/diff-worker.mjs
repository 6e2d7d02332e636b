// A worker thread that diffs texts for a release comparison, off the server's event loop.
// The pairs share one budget, the smallest first (a large diff must not starve the small ones);
// jsdiff gives up on a pair past what is left of it (null).
import { parentPort, workerData } from 'node:worker_threads'
import { createTwoFilesPatch } from 'diff'

const { pairs, budgetMs } = workerData
const deadline = Date.now() + budgetMs
const sizeOf = ({ oldText, newText }) => oldText.length + newText.length
const diffs = pairs.map(() => null)
for (const index of pairs.map((_, index) => index).sort((a, b) => sizeOf(pairs[a]) - sizeOf(pairs[b]))) {
  const { oldName, newName, oldText, newText } = pairs[index]
  const timeout = deadline - Date.now()
  if (timeout <= 0) break
  diffs[index] = createTwoFilesPatch(oldName, newName, oldText, newText, undefined, undefined, { timeout }) ?? null
}
parentPort.postMessage(diffs)
