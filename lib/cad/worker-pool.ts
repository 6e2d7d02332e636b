import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'

const TS_WORKER = path.join(process.cwd(), 'lib/cad/ts-worker.mjs')

export class TimeLimitError extends Error {
  constructor(readonly timeLimitMs: number) {
    super(`stopped after the time limit of ${timeLimitMs / 1000} s`)
  }
}

interface Task<Job, Result> {
  job: Job
  timeLimitMs: number
  resolve: (result: Result) => void
  reject: (error: Error) => void
}

interface Slot<Job, Result> {
  worker: Worker
  task?: Task<Job, Result>
  timer?: NodeJS.Timeout
}

export interface WorkerPoolOptions {
  /** Absolute path of a TypeScript worker module; it answers each message with one message. */
  script: string
  size: number
  /** V8 heap limit of each worker (WASM memory is limited by the worker itself). */
  maxHeapMb: number
}

/**
 * A fixed number of worker threads, one task each at a time, the rest queued in order.
 * A task over its time limit, or a crashed worker, costs that worker: it is terminated
 * (~10 ms even mid-computation) and replaced by a fresh one, so the pool always stays whole.
 */
export class WorkerPool<Job, Result> {
  private readonly slots: Slot<Job, Result>[] = []
  private readonly queue: Task<Job, Result>[] = []
  private isClosed = false

  constructor(private readonly options: WorkerPoolOptions) {
    for (let i = 0; i < options.size; i++) this.slots.push(this.spawn())
  }

  get pending(): number {
    return this.queue.length + this.slots.filter((slot) => slot.task).length
  }

  run(job: Job, timeLimitMs: number): Promise<Result> {
    if (this.isClosed) return Promise.reject(new Error('worker pool is closed'))
    return new Promise((resolve, reject) => {
      this.queue.push({ job, timeLimitMs, resolve, reject })
      this.dispatch()
    })
  }

  async close(): Promise<void> {
    this.isClosed = true
    for (const task of this.queue.splice(0)) task.reject(new Error('worker pool is closed'))
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()))
  }

  private spawn(): Slot<Job, Result> {
    // Loaded by Node at run time, never bundled: the worker runs the TypeScript sources via tsx.
    const worker = new Worker(/* turbopackIgnore: true */ TS_WORKER, {
      workerData: { script: pathToFileURL(this.options.script).href },
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
    })
    const slot: Slot<Job, Result> = { worker }
    worker.on('message', (result: Result) => this.finish(slot, (task) => task.resolve(result)))
    worker.on('error', (error) => this.replace(slot, new Error(`CAD worker failed: ${error.message}`)))
    worker.on('exit', (code) => this.replace(slot, new Error(`CAD worker exited with code ${code}`)))
    worker.unref()
    return slot
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.task) continue
      const task = this.queue.shift()
      if (!task) return
      slot.task = task
      slot.timer = setTimeout(() => this.replace(slot, new TimeLimitError(task.timeLimitMs)), task.timeLimitMs)
      slot.worker.postMessage(task.job)
    }
  }

  private finish(slot: Slot<Job, Result>, settle: (task: Task<Job, Result>) => void): void {
    const { task } = slot
    clearTimeout(slot.timer)
    slot.task = undefined
    if (task) settle(task)
    this.dispatch()
  }

  private replace(slot: Slot<Job, Result>, error: Error): void {
    const index = this.slots.indexOf(slot)
    if (index === -1) return
    slot.worker.removeAllListeners()
    void slot.worker.terminate()
    if (!this.isClosed) this.slots[index] = this.spawn()
    else this.slots.splice(index, 1)
    this.finish(slot, (task) => task.reject(error))
  }
}
