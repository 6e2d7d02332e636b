import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { Mesh } from '@/lib/cad/mesh/mesh'
import { logger } from '@/lib/log'
import { metrics } from '@/lib/metrics'
import { processSingleton } from '@/lib/process-singleton'

const TS_WORKER = path.join(process.cwd(), 'lib/cad/ts-worker.mjs')

export class DroppedError extends Error {
  override readonly name = 'DroppedError'

  constructor() {
    super('dropped: no worker was free for it')
  }
}

/** By name: the Next.js server bundles may hold more than one copy of this module, each its own class. */
export function isDropped(error: unknown): boolean {
  return error instanceof Error && error.name === 'DroppedError'
}

export class TimeLimitError extends Error {
  constructor(readonly timeLimitMs: number) {
    super(`stopped after the time limit of ${timeLimitMs / 1000} s`)
  }
}

/**
 * The log line of a task that failed as a task (its time limit, a worker that crashed): a failed
 * build's. A cancelled task, or a dropped one that never ran, has nothing to say of the model: rethrown.
 */
export function failedTaskLine(error: unknown, signal?: AbortSignal): string {
  if (signal?.aborted || isDropped(error)) throw error
  return `ERROR: ${error instanceof TimeLimitError ? `the build was ${error.message}` : (error as Error).message}`
}

/** Who a task is for, so that no one client can take every worker. */
export interface Fairness {
  /** Tasks take turns by this key (a customer, a session): the least recently served goes first. */
  turn: string
  /** Keys of which at most one task runs at a time (a session, an anonymous customer). */
  exclusive: string[]
  /** Keys that hold at most ceil(workers / 2) workers while tasks of others wait (an application, a configurator). */
  shared: string[]
  /** Work nobody waits for (a test drive, print figures, a prefetch candidate): it runs on the background workers only. */
  background?: boolean
}

/** How a task is scheduled. */
export interface Scheduling {
  fairness: Fairness
  /** Aborting takes a queued task out of the queue and stops a running one (its worker is replaced). */
  signal?: AbortSignal
  /** Called when a worker starts on the task. */
  onStart?: () => void
  /** Work that is worth doing only now (a prefetch candidate ahead of the customer): rejected with DroppedError unless a worker starts on it at once. */
  dropUnlessIdle?: boolean
  /** Resolves when a customer starts waiting for this background task: still queued, it becomes theirs (lib/builds/build-cache.ts). */
  foreground?: Promise<void>
}

export interface RunOptions extends Scheduling {
  timeLimitMs: number
}

interface Task<Job, Result> extends RunOptions {
  job: Job
  /** A background task held back while customers' builds ran or waited (counted once). */
  yielded?: boolean
  resolve: (result: Result) => void
  reject: (error: Error) => void
}

interface Slot<Job, Result> {
  worker: Worker
  /** Runs background tasks only, at the lowest CPU priority. */
  background: boolean
  /** The worker said it can take a task; cleared when it gets one. */
  isReady: boolean
  task?: Task<Job, Result>
  /** When its task started, as a dispatch count. */
  startedAt?: number
  timer?: NodeJS.Timeout
  /** When its task's time limit ends (performance.now()), or, while it is paused, how much of it is left. */
  deadline?: { at: number } | { leftMs: number }
  /** Told to pause (pausesForCustomers): it stands still until told to resume. */
  paused?: boolean
}

/** What a worker posts when it can take a task: after starting, and again after each answer once prepared. */
export const WORKER_READY = 'ready'
/** What an idle worker posts when it starts preparing ahead, which takes its thread: not ready until its next WORKER_READY. */
export const WORKER_BUSY = 'busy'
/** What a pool that pausesForCustomers posts to a background worker when customers' builds start, and when they have ended. */
export const WORKER_PAUSE = 'pause'
export const WORKER_RESUME = 'resume'

/**
 * The buffers a worker hands back with a result's mesh, each once: a mesh read from the cache
 * (serialize-mesh.ts) holds every array in one buffer, and a buffer listed twice fails the transfer.
 */
export function meshBuffers(mesh: Mesh | null | undefined): ArrayBuffer[] {
  return [
    ...new Set(mesh?.parts.flatMap((part) => [part.positions.buffer, part.indices.buffer]) ?? []),
  ] as ArrayBuffer[]
}

export interface WorkerPoolOptions {
  /** Absolute path of a TypeScript worker module: it posts WORKER_READY, then answers each task with one message. */
  script: string
  /** Workers for tasks someone waits for. */
  size: number
  /** Workers for background tasks, their threads at the lowest CPU priority (nice 19). */
  backgroundSize: number
  /** V8 heap limit of each worker (WASM memory is limited by the worker itself). */
  maxHeapMb: number
  /**
   * How long after customers' last build background work waits before it starts, and a shop past
   * its half before it takes the worker another shop's customer freed (a dragging customer's next
   * move comes within it).
   */
  backgroundGraceMs?: number
  /** Its background work waits for the customers of every pool that shares the machine too (a slice waits for builds). */
  sharesMachine?: boolean
  /**
   * Its background workers run child processes that can stand still (SIGSTOP): they are told to
   * pause while customers' builds of the machine run or wait, and to resume once background work
   * may start again. Paused time does not count against the task's time limit.
   */
  pausesForCustomers?: boolean
}

/** The pools whose background work waits for each other's customers: this process's engines and slicer, whichever copy of this module made them. */
const machinePools = processSingleton('machinePools', () => new Set<WorkerPool<unknown, unknown>>())

const REMEMBERED_TURNS = 10_000
/** The lowest priority: a thread at nice 19 gets about 1.5 % of a core that a nice-0 thread wants too. */
const BACKGROUND_NICENESS = 19
const BACKGROUND_GRACE_MS = 500

/**
 * A fixed number of worker threads, one task each at a time, shared fairly: of the queued
 * tasks whose exclusive keys are free, those of shared keys below their half of the workers go
 * first, and among them the turn key served longest ago. A key past its half (it took idle workers
 * while nobody else waited) loses its newest task's worker to a task within its shares that
 * waits; that task runs anew later. Nor does such a key take the worker another shop's customer
 * freed until a moment has passed: a customer who just got a model asks for the next one within
 * it, and would otherwise stop that task again, at the cost of a worker's boot each move. A task over its time limit, an aborted
 * task or a crashed worker costs that worker: it is terminated (~10 ms even mid-computation)
 * and replaced by a fresh one, so the pool always stays whole.
 *
 * Background tasks run on workers of their own whose threads have the lowest CPU priority, and
 * start only while no customer's build runs or waits, a moment after the last one ended: a
 * dragging customer's next build comes within that moment, so background work never shares the
 * machine with a drag (even at the lowest priority a busy core slows the other one's build). A
 * candidate ahead of the customer (dropUnlessIdle) is no such work: it starts whenever its worker is free.
 */
export class WorkerPool<Job, Result> {
  private readonly slots: Slot<Job, Result>[] = []
  /**
   * A worker booted ahead (about a second of CPU) to take the place of one that is stopped, so
   * a runaway build's worker is replaced by a ready one and nobody waits for the boot.
   */
  private spare: Slot<Job, Result>
  private queue: Task<Job, Result>[] = []
  /** Turn key → when it was last served (a dispatch counter). */
  private readonly servedAt = new Map<string, number>()
  private dispatches = 0
  /** When the last customer's build ended (performance.now()). */
  private customersIdleSince = Number.NEGATIVE_INFINITY
  /** When a customer's build of these shared keys ended last, for those ended within the moment after. */
  private recentlyServed = new Map<string, { shared: string[]; at: number }>()
  /** A dispatch due when a grace ends, and when. */
  private wake?: { timer: NodeJS.Timeout; at: number }

  constructor(private readonly options: WorkerPoolOptions) {
    for (let i = 0; i < options.size; i++) this.slots.push(this.spawn(false))
    for (let i = 0; i < options.backgroundSize; i++) this.slots.push(this.spawn(true))
    this.spare = this.spawn(false)
    metrics.collectors.push(() => this.collect())
    if (options.sharesMachine) machinePools.add(this as WorkerPool<unknown, unknown>)
  }

  /** The pools whose customers this one's background work waits for. */
  private get neighbours(): WorkerPool<unknown, unknown>[] {
    return this.options.sharesMachine ? [...machinePools] : [this as WorkerPool<unknown, unknown>]
  }

  private get hasCustomerWork(): boolean {
    return (
      this.slots.some((slot) => !slot.background && slot.task) || this.queue.some((task) => !task.fairness.background)
    )
  }

  private collect(): void {
    metrics.queueDepth.inc({ queue: 'process' }, this.queue.length)
    for (const slot of this.slots)
      metrics.buildSlots.inc({ kind: slot.background ? 'background' : 'customer', state: slot.task ? 'busy' : 'free' })
  }

  run(job: Job, options: RunOptions): Promise<Result> {
    return new Promise((resolve, reject) => {
      const { signal } = options
      if (signal?.aborted) return reject(signal.reason as Error)
      const onAbort = () => this.cancel(task)
      const settled = () => signal?.removeEventListener('abort', onAbort)
      const task: Task<Job, Result> = {
        ...options,
        job,
        resolve: (result) => (settled(), resolve(result)),
        reject: (error) => (settled(), reject(error)),
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      void options.foreground?.then(() => this.promote(task))
      this.queue.push(task)
      this.dispatch()
      if (options.dropUnlessIdle && this.queue.includes(task)) {
        metrics.backgroundWork.inc({ event: 'dropped' })
        this.queue = this.queue.filter((queued) => queued !== task)
        task.reject(new DroppedError())
      }
    })
  }

  private spawn(background: boolean): Slot<Job, Result> {
    // Loaded by Node at run time, never bundled: the worker runs the TypeScript sources via tsx.
    const worker = new Worker(/* turbopackIgnore: true */ TS_WORKER, {
      workerData: { script: pathToFileURL(this.options.script).href, niceness: background ? BACKGROUND_NICENESS : 0 },
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
      // What a thread prints (a dependency's warning) reaches the log as its lines, never as free text.
      stderr: true,
    })
    worker.stderr.setEncoding('utf8').on('data', (text: string) => {
      for (const line of text.split('\n')) if (line.trim()) logger.warn({ thread: 'build worker' }, line)
    })
    const slot: Slot<Job, Result> = { worker, background, isReady: false }
    worker.on('message', (message: Result | typeof WORKER_READY | typeof WORKER_BUSY) => {
      if (message === WORKER_BUSY) {
        // A task sent meanwhile waits for the preparation: the worker answers it all the same.
        if (!slot.task) slot.isReady = false
        return
      }
      if (message !== WORKER_READY) return this.finish(slot, (task) => task.resolve(message))
      slot.isReady = true
      this.dispatch()
    })
    worker.on('error', (error) => this.replace(slot, new Error(`CAD worker failed: ${error.message}`)))
    worker.on('exit', (code) => this.replace(slot, new Error(`CAD worker exited with code ${code}`)))
    worker.unref()
    return slot
  }

  private cancel(task: Task<Job, Result>): void {
    const reason = task.signal?.reason as Error
    const slot = this.slots.find((candidate) => candidate.task === task)
    if (slot) return this.replace(slot, reason)
    if (!this.queue.includes(task)) return
    this.queue = this.queue.filter((queued) => queued !== task)
    task.reject(reason)
  }

  private dispatch(): void {
    this.followCustomers()
    for (const slot of this.slots) {
      if (slot.task || !slot.isReady) continue
      const task = this.pickNext(slot.background)
      if (!task) continue
      this.queue = this.queue.filter((queued) => queued !== task)
      this.remember(task.fairness.turn)
      slot.isReady = false
      slot.task = task
      slot.startedAt = this.dispatches
      slot.deadline = { at: performance.now() + task.timeLimitMs }
      slot.timer = setTimeout(() => this.replace(slot, new TimeLimitError(task.timeLimitMs)), task.timeLimitMs)
      slot.worker.postMessage(task.job)
      if (task.fairness.background) metrics.backgroundWork.inc({ event: 'started' })
      task.onStart?.()
    }
    this.preempt()
    if (this.hasCustomerWork) for (const pool of this.neighbours) if (pool !== this) pool.followCustomers()
  }

  /** Pauses its busy background workers while the machine's customers work, resumes them once background work may start. */
  private followCustomers(): void {
    if (!this.options.pausesForCustomers) return
    const busy = this.neighbours.some((pool) => pool.hasCustomerWork)
    for (const slot of this.slots) {
      if (!slot.background) continue
      if (busy && slot.task?.fairness.background && !slot.paused) this.pause(slot)
      else if (!busy && slot.paused && this.mayStartBackground()) this.resume(slot)
    }
  }

  private pause(slot: Slot<Job, Result>): void {
    slot.paused = true
    slot.worker.postMessage(WORKER_PAUSE)
    if (slot.deadline && 'at' in slot.deadline) {
      clearTimeout(slot.timer)
      slot.deadline = { leftMs: slot.deadline.at - performance.now() }
    }
    metrics.backgroundWork.inc({ event: 'paused' })
  }

  private resume(slot: Slot<Job, Result>): void {
    slot.paused = false
    slot.worker.postMessage(WORKER_RESUME)
    const { task, deadline } = slot
    if (task && deadline && 'leftMs' in deadline) {
      slot.deadline = { at: performance.now() + deadline.leftMs }
      slot.timer = setTimeout(() => this.replace(slot, new TimeLimitError(task.timeLimitMs)), deadline.leftMs)
    }
  }

  /**
   * A waiting task within its shares takes the worker of the newest task of a key past its half
   * (one that took idle workers while nobody else waited, a hostile shop's runaway builds): that
   * task is stopped and queued again in front, to run anew once it is within its share again.
   */
  private preempt(): void {
    const customers = this.slots.filter((slot) => !slot.background)
    if (customers.some((slot) => !slot.task)) return
    const half = Math.ceil(customers.length / 2)
    const holding = (key: string) => customers.filter((slot) => slot.task!.fairness.shared.includes(key)).length
    const running = this.slots.flatMap((slot) => (slot.task ? [slot.task.fairness] : []))
    const isFree = (key: string) => !running.some((held) => held.exclusive.includes(key))
    const waits = this.queue.some(
      ({ fairness }) =>
        !fairness.background && fairness.exclusive.every(isFree) && fairness.shared.every((key) => holding(key) < half),
    )
    const victim = customers
      .filter((slot) => slot.task!.fairness.shared.some((key) => holding(key) > half))
      .reduce<Slot<Job, Result> | undefined>(
        (newest, slot) => (!newest || slot.startedAt! > newest.startedAt! ? slot : newest),
        undefined,
      )
    if (!waits || !victim) return
    const task = victim.task!
    clearTimeout(victim.timer)
    victim.task = undefined
    this.queue.unshift(task)
    this.swapOut(victim)
    this.dispatch()
  }

  /**
   * A background task someone now waits for: queued, it goes to the customers' workers without
   * waiting for them to be idle; running and paused, it goes on.
   */
  private promote(task: Task<Job, Result>): void {
    if (!task.fairness.background) return
    const slot = this.slots.find((candidate) => candidate.task === task)
    if (!slot && !this.queue.includes(task)) return
    task.fairness = { ...task.fairness, background: false }
    if (slot?.paused) this.resume(slot)
    this.dispatch()
  }

  /** Whether background work may start now; if only the moment after customers' builds is missing, a dispatch comes when it has passed. */
  private mayStartBackground(): boolean {
    const pools = this.neighbours
    if (pools.some((pool) => pool.hasCustomerWork)) return false
    const idleSince = Math.max(...pools.map((pool) => pool.customersIdleSince))
    const wait = idleSince + this.graceMs - performance.now()
    if (wait <= 0) return true
    this.dispatchIn(wait)
    return false
  }

  /** Counts a background task held back for customers, once; it may not start. */
  private yieldTo(task: Task<Job, Result>): false {
    if (!task.yielded) metrics.backgroundWork.inc({ event: 'yielded' })
    task.yielded = true
    return false
  }

  /** A dispatch in `ms`, unless one comes sooner. */
  private dispatchIn(ms: number): void {
    const at = performance.now() + ms
    if (this.wake && this.wake.at <= at) return
    clearTimeout(this.wake?.timer)
    const timer = setTimeout(() => {
      this.wake = undefined
      this.dispatch()
    }, ms).unref()
    this.wake = { timer, at }
  }

  private get graceMs(): number {
    return this.options.backgroundGraceMs ?? BACKGROUND_GRACE_MS
  }

  /** Whether a worker freed a moment ago by another shop's customer is kept from `task`, past its half; if so, a dispatch comes when the moment has passed. */
  private isHeldFrom(task: Task<Job, Result>): boolean {
    let wait = 0
    for (const { shared, at } of this.recentlyServed.values()) {
      if (!shared.some((key) => task.fairness.shared.includes(key)))
        wait = Math.max(wait, at + this.graceMs - performance.now())
    }
    if (wait <= 0) return false
    this.dispatchIn(wait)
    return true
  }

  /** The next task for a free worker of the kind `background` says. */
  private pickNext(background: boolean): Task<Job, Result> | undefined {
    const kind = this.slots.filter((slot) => slot.background === background)
    const running = this.slots.flatMap((slot) => (slot.task ? [slot.task.fairness] : []))
    const holding = (fairness: Fairness[], key: string) =>
      fairness.filter((held) => held.exclusive.includes(key) || held.shared.includes(key)).length
    const runningHere = kind.flatMap((slot) => (slot.task ? [slot.task.fairness] : []))
    const half = Math.ceil(kind.length / 2)
    const mayStart = (task: Task<Job, Result>) =>
      !background || task.dropUnlessIdle || this.mayStartBackground() || this.yieldTo(task)
    const startable = this.queue.filter(
      (task) =>
        Boolean(task.fairness.background) === background &&
        task.fairness.exclusive.every((key) => holding(running, key) === 0) &&
        mayStart(task),
    )
    const withinShare = startable.filter((task) =>
      task.fairness.shared.every((key) => holding(runningHere, key) < half),
    )
    // Past its half a key may still take an idle worker when nobody else's task could use it.
    const candidates =
      withinShare.length > 0 ? withinShare : startable.filter((task) => background || !this.isHeldFrom(task))
    const served = (task: Task<Job, Result>) => this.servedAt.get(task.fairness.turn) ?? -1
    return candidates.reduce<Task<Job, Result> | undefined>(
      (best, task) => (!best || served(task) < served(best) ? task : best),
      undefined,
    )
  }

  private remember(turn: string): void {
    this.servedAt.delete(turn)
    this.servedAt.set(turn, this.dispatches++)
    // Forgetting the longest-served keys only moves them ahead of their turn once.
    for (const key of this.servedAt.keys()) {
      if (this.servedAt.size <= REMEMBERED_TURNS) break
      this.servedAt.delete(key)
    }
  }

  private finish(slot: Slot<Job, Result>, settle: (task: Task<Job, Result>) => void): void {
    const { task } = slot
    clearTimeout(slot.timer)
    slot.task = undefined
    if (task && !slot.background) {
      this.customersIdleSince = performance.now()
      for (const [key, { at }] of this.recentlyServed)
        if (at + this.graceMs <= this.customersIdleSince) this.recentlyServed.delete(key)
      const { shared } = task.fairness
      if (shared.length > 0) this.recentlyServed.set(shared.join('\n'), { shared, at: this.customersIdleSince })
      // Background work of the others may start once this pool's customers are idle too.
      for (const pool of this.neighbours) if (pool !== this) pool.dispatchIn(pool.graceMs)
    }
    if (task) settle(task)
    this.dispatch()
  }

  private replace(slot: Slot<Job, Result>, error: Error): void {
    if (this.swapOut(slot)) this.finish(slot, (task) => task.reject(error))
  }

  /** Terminates the slot's worker and puts another in its place; false when it held no place (a stale or the spare one). */
  private swapOut(slot: Slot<Job, Result>): boolean {
    const index = this.slots.indexOf(slot)
    const isSpare = slot === this.spare
    if (index === -1 && !isSpare) return false
    slot.worker.removeAllListeners()
    void slot.worker.terminate()
    if (isSpare) {
      this.spare = this.spawn(false)
      return false
    }
    // A background worker's boot waits for nobody: it is replaced by a new one, at its priority.
    if (slot.background) {
      this.slots[index] = this.spawn(true)
    } else {
      this.slots[index] = this.spare
      this.spare = this.spawn(false)
    }
    return true
  }
}
