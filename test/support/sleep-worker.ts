// A worker for WorkerPool tests: answers each job after sleeping its `ms` (time paused by
// WORKER_PAUSE not counted), with when it ran, how often it was paused, when this worker booted
// (process-wide monotonic nanoseconds, comparable between threads), and its thread's niceness
// (Linux: a thread's own, by its id).
import fs from 'node:fs'
import os from 'node:os'
import { parentPort } from 'node:worker_threads'
import { WORKER_PAUSE, WORKER_READY, WORKER_RESUME } from '../../lib/cad/worker-pool'

const booted = process.hrtime.bigint()
const niceness =
  process.platform === 'linux' ? os.getPriority(Number(fs.readlinkSync('/proc/thread-self').split('/').pop())) : 0
let sleeping: { name: string; start: bigint; leftMs: number; since: number; timer?: NodeJS.Timeout; pauses: number }

function wake(): void {
  sleeping.since = performance.now()
  sleeping.timer = setTimeout(() => {
    const { name, start, pauses } = sleeping
    parentPort?.postMessage({ name, start, end: process.hrtime.bigint(), booted, niceness, pauses })
    parentPort?.postMessage(WORKER_READY)
  }, sleeping.leftMs)
}

parentPort?.postMessage(WORKER_READY)
parentPort?.on('message', (job: { name: string; ms: number } | typeof WORKER_PAUSE | typeof WORKER_RESUME) => {
  if (job === WORKER_PAUSE) {
    clearTimeout(sleeping.timer)
    sleeping.leftMs -= performance.now() - sleeping.since
    sleeping.pauses++
  } else if (job === WORKER_RESUME) wake()
  else {
    sleeping = { name: job.name, start: process.hrtime.bigint(), leftMs: job.ms, since: 0, pauses: 0 }
    wake()
  }
})
