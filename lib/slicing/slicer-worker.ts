// A worker thread that runs each slice (prusa-slicer.ts) as a child process in its sandbox.
// Started by lib/cad/worker-pool.ts for slicer.ts. Relative imports: a worker thread.
import { parentPort } from 'node:worker_threads'
import { WORKER_READY } from '../cad/worker-pool'
import { slice, type SliceInput } from './prusa-slicer'

if (!parentPort) throw new Error('slicer-worker must run in a worker thread')
const port = parentPort

port.on('message', (input: SliceInput) => {
  void slice(input).then((result) => {
    port.postMessage(result)
    port.postMessage(WORKER_READY)
  })
})
port.postMessage(WORKER_READY)
