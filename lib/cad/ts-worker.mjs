// Worker threads start from plain JavaScript: set the thread's CPU priority, register tsx, then
// load the TypeScript worker.
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

// Linux gives each thread its own niceness, set through its thread id; elsewhere it stays as is.
if (workerData.niceness) {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), workerData.niceness)
  } catch {
    // no per-thread priority here
  }
}

register()
await import(workerData.script)
