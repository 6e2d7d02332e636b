// A worker thread that runs each slice (prusa-slicer.ts) as a child process in its sandbox,
// stopped while the pool says customers' builds run (a background worker's). Started by
// lib/cad/worker-pool.ts for slicer.ts. Relative imports: a worker thread.
import { parentPort } from 'node:worker_threads'
import { WORKER_PAUSE, WORKER_READY, WORKER_RESUME } from '../cad/worker-pool'
import { PauseSwitch } from '../sandbox/bubblewrap'
import { slice, type SliceInput } from './prusa-slicer'

if (!parentPort) throw new Error('slicer-worker must run in a worker thread')
const port = parentPort
const pauses = new PauseSwitch()

port.on('message', (message: SliceInput | typeof WORKER_PAUSE | typeof WORKER_RESUME) => {
  if (message === WORKER_PAUSE || message === WORKER_RESUME) return pauses.set(message === WORKER_PAUSE)
  void slice(message, pauses).then((result) => {
    port.postMessage(result)
    port.postMessage(WORKER_READY)
  })
})
port.postMessage(WORKER_READY)
