// A worker for WorkerPool tests: answers each job after sleeping its `ms`, with when it ran
// and when this worker booted (process-wide monotonic nanoseconds, comparable between threads),
// and its thread's niceness (Linux: a thread's own, by its id).
import fs from 'node:fs'
import os from 'node:os'
import { parentPort } from 'node:worker_threads'
import { WORKER_READY } from '../../lib/cad/worker-pool'

const booted = process.hrtime.bigint()
const niceness =
  process.platform === 'linux' ? os.getPriority(Number(fs.readlinkSync('/proc/thread-self').split('/').pop())) : 0
parentPort?.postMessage(WORKER_READY)
parentPort?.on('message', (job: { name: string; ms: number }) => {
  const start = process.hrtime.bigint()
  setTimeout(() => {
    parentPort?.postMessage({ name: job.name, start, end: process.hrtime.bigint(), booted, niceness })
    parentPort?.postMessage(WORKER_READY)
  }, job.ms)
})
