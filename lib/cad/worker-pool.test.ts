import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { deserializeMesh, serializeMesh } from '@/lib/cad/mesh/serialize-mesh'
import { DroppedError, type Fairness, meshBuffers, TimeLimitError, WorkerPool } from '@/lib/cad/worker-pool'

interface Job {
  name: string
  ms: number
}

interface Ran {
  name: string
  start: bigint
  end: bigint
  booted: bigint
  /** The niceness of the thread it ran on. */
  niceness: number
  /** How often it was told to pause. */
  pauses: number
}

const SCRIPT = path.join(process.cwd(), 'test/support/sleep-worker.ts')
function createPool(size: number, backgroundSize = 0, backgroundGraceMs = 0) {
  const pool = new WorkerPool<Job, Ran>({ script: SCRIPT, size, backgroundSize, maxHeapMb: 64, backgroundGraceMs })
  const started: string[] = []
  const ran: (Ran & { keys: string[] })[] = []
  const run = (
    name: string,
    fairness: Fairness,
    { ms = 20, ...options }: { ms?: number; signal?: AbortSignal; dropUnlessIdle?: boolean } = {},
  ) =>
    pool
      .run({ name, ms }, { timeLimitMs: 10_000, fairness, ...options, onStart: () => started.push(name) })
      .then((result) => {
        ran.push({ ...result, keys: [...fairness.exclusive, ...fairness.shared] })
        return result.name
      })
  const nicenessOf = (name: string) => ran.find((task) => task.name === name)?.niceness
  /** The most tasks of `key` that ran at the same time, from when the workers say they ran. */
  const peak = (key: string) => {
    const mine = ran.filter((task) => task.keys.includes(key))
    return Math.max(
      ...mine.map((task) => mine.filter((other) => other.start <= task.start && task.start < other.end).length),
    )
  }
  /** Resolves once `count` tasks have started. */
  const startedCount = async (count: number) => {
    while (started.length < count) await new Promise((resolve) => setTimeout(resolve, 5))
  }
  const ranOf = (name: string) => ran.find((task) => task.name === name)!
  return { run, started, peak, startedCount, nicenessOf, ranOf }
}

/** A customer of the anonymous kind: one worker at a time, turns by customer. */
function customer(id: string, session: string, application = 'shop'): Fairness {
  return {
    turn: `customer:${id}`,
    exclusive: [`session:${session}`, `customer:${id}`],
    shared: [`application:${application}`, `configurator:${application}`],
  }
}

describe('WorkerPool', () => {
  it("runs background work on its own lowest-priority worker, beside customers' builds and never on their workers", async () => {
    const { run, started, startedCount, nicenessOf } = createPool(1, 1)
    const background = (name: string): Fairness => ({
      turn: `session:${name}`,
      exclusive: [`session:${name}`],
      shared: [],
      background: true,
    })
    const drive = run('test-drive', background('drive'), { ms: 150 })
    await startedCount(1)
    // The background worker is taken: a second background task waits, a customer's starts at once.
    const parts = run('parts', background('parts'), { ms: 20 })
    const first = run('customer-1', customer('c1', 's1'), { ms: 20 })
    await first
    expect(started).toEqual(['test-drive', 'customer-1'])
    // With the customer's worker free again, background work still waits for its own.
    const second = run('customer-2', customer('c2', 's2'), { ms: 20 })
    await Promise.all([drive, parts, second])
    expect(started).toEqual(['test-drive', 'customer-1', 'customer-2', 'parts'])
    if (process.platform === 'linux') {
      expect([nicenessOf('test-drive'), nicenessOf('parts')]).toEqual([19, 19])
      expect([nicenessOf('customer-1'), nicenessOf('customer-2')]).toEqual([0, 0])
    }
  })

  it("starts background work only while no customer's build runs or waits, and not in the moment after one ends", async () => {
    const { run, ranOf } = createPool(1, 1, 1000)
    const figures = run('print figures', {
      turn: 'session:figures',
      exclusive: ['session:figures'],
      shared: [],
      background: true,
    })
    // A dragging customer: the next build is asked for as soon as the last one answered.
    await run('move-1', customer('c1', 's1'), { ms: 100 })
    await run('move-2', customer('c1', 's1'), { ms: 50 })
    await figures
    expect(ranOf('print figures').start).toBeGreaterThan(ranOf('move-2').end)
  })

  it("starts one pool's background work only once the customers of every pool sharing the machine are idle", async () => {
    const options = { script: SCRIPT, maxHeapMb: 64, backgroundGraceMs: 100, sharesMachine: true }
    const engines = new WorkerPool<Job, Ran>({ ...options, size: 1, backgroundSize: 0 })
    const slicer = new WorkerPool<Job, Ran>({ ...options, size: 0, backgroundSize: 1 })
    const run = (pool: WorkerPool<Job, Ran>, name: string, fairness: Fairness, ms: number) =>
      pool.run({ name, ms }, { timeLimitMs: 10_000, fairness })
    const build = run(engines, 'move', customer('c2', 's2'), 200)
    await new Promise((resolve) => setTimeout(resolve, 20))
    const sliced = run(slicer, 'slice', { turn: 'slice', exclusive: ['slice'], shared: [], background: true }, 10)
    const [move, slice] = await Promise.all([build, sliced])
    expect(slice.start).toBeGreaterThan(move.end + 100_000_000n)
  })

  it('pauses a running slice while customers of the machine build, and its time limit does not count the pause', async () => {
    const options = { script: SCRIPT, maxHeapMb: 64, backgroundGraceMs: 100, sharesMachine: true }
    const engines = new WorkerPool<Job, Ran>({ ...options, size: 1, backgroundSize: 0 })
    const slicer = new WorkerPool<Job, Ran>({ ...options, size: 0, backgroundSize: 1, pausesForCustomers: true })
    const background = { turn: 'slice', exclusive: ['slice'], shared: [], background: true }
    // 300 ms of slicing within a limit of 500 ms, though it ends more than 500 ms after it started.
    let started!: () => void
    const slicing = new Promise<void>((resolve) => (started = resolve))
    const sliced = slicer.run({ name: 'slice', ms: 300 }, { timeLimitMs: 500, fairness: background, onStart: started })
    await slicing
    await new Promise((resolve) => setTimeout(resolve, 100))
    const move = await engines.run({ name: 'move', ms: 400 }, { timeLimitMs: 10_000, fairness: customer('c4', 's4') })
    const slice = await sliced
    expect(slice.pauses).toBe(1)
    // It stood still through the move and the moment after it, then slept its last 200 ms.
    expect(slice.end).toBeGreaterThan(move.end + 100_000_000n + 150_000_000n)
    expect(Number(slice.end - slice.start) / 1e6).toBeGreaterThan(500)
  })

  it('drops a candidate that the background worker cannot start at once, and runs it when it can, customers or not', async () => {
    const { run, started } = createPool(1, 1)
    const candidate = (id: string): Fairness => ({
      turn: `prefetch:${id}`,
      exclusive: [`prefetch:${id}`],
      shared: [],
      background: true,
    })
    /** Started once the background worker has booted: dropped until then. */
    const startedCandidate = async (name: string, ms: number): Promise<string> => {
      for (;;) {
        try {
          return await run(name, candidate(name), { ms, dropUnlessIdle: true })
        } catch (error) {
          if (!(error instanceof DroppedError)) throw error
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
      }
    }
    // A customer's build on every customer worker takes nothing from candidates.
    const customerBuild = run('customer', customer('c2', 's2'), { ms: 300 })
    const first = startedCandidate('candidate-1', 100)
    while (!started.includes('candidate-1')) await new Promise((resolve) => setTimeout(resolve, 5))
    await expect(run('candidate-2', candidate('c3'), { dropUnlessIdle: true })).rejects.toBeInstanceOf(DroppedError)
    await Promise.all([customerBuild, first])
    await expect(startedCandidate('candidate-3', 20)).resolves.toBe('candidate-3')
    expect(started).toEqual(['customer', 'candidate-1', 'candidate-3'])
  })

  it("starts a waiting customer's build before an attacker's second one, with one worker", async () => {
    const { run, started } = createPool(1)
    const attacker = [1, 2, 3].map((n) => run(`attacker-${n}`, customer('attacker', `a${n}`)))
    const normal = run('normal', customer('normal', 'n1'))
    await Promise.all([...attacker, normal])
    expect(started).toEqual(['attacker-1', 'normal', 'attacker-2', 'attacker-3'])
  })

  it('lets an anonymous customer hold one worker at a time however many sessions it has', async () => {
    const { run, started, peak } = createPool(3)
    const attacker = [1, 2, 3, 4].map((n) => run(`attacker-${n}`, customer('attacker', `a${n}`), { ms: 30 }))
    const others = [1, 2].map((n) => run(`other-${n}`, customer(`other-${n}`, `o${n}`), { ms: 30 }))
    await Promise.all([...attacker, ...others])
    expect(peak('customer:attacker')).toBe(1)
    // The two other customers did not wait for the attacker's queue.
    expect(started.indexOf('other-1')).toBeLessThan(started.indexOf('attacker-2'))
    expect(started.indexOf('other-2')).toBeLessThan(started.indexOf('attacker-2'))
  })

  it('runs one build of a session at a time', async () => {
    const { run, peak } = createPool(2)
    const owner = (): Fairness => ({ turn: 'session:s', exclusive: ['session:s'], shared: ['configurator:c'] })
    await Promise.all(['a', 'b', 'c'].map((name) => run(name, owner())))
    expect(peak('session:s')).toBe(1)
  })

  it('keeps an application to half of the workers while others wait, and lets it use them all when nobody does', async () => {
    const { run, started, startedCount } = createPool(4)
    // Long enough that every worker has started (booting takes a while) before the first ends.
    const busy = Array.from({ length: 6 }, (_, n) =>
      run(`busy-${n}`, customer(`busy-${n}`, `b${n}`, 'busy'), { ms: 2000 }),
    )
    await startedCount(4)
    const quiet = [0, 1].map((n) => run(`quiet-${n}`, customer(`quiet-${n}`, `q${n}`, 'quiet'), { ms: 60 }))
    await Promise.all([...busy, ...quiet])
    // All four workers went to the busy shop at first (nobody else waited); the quiet shop's
    // builds took the workers of its two newest builds, which ran again later.
    expect(started.slice(0, 6)).toEqual(['busy-0', 'busy-1', 'busy-2', 'busy-3', 'quiet-0', 'quiet-1'])
    expect(started.filter((name) => name === 'busy-2' || name === 'busy-3')).toHaveLength(4)

    // Queued together behind other work, the busy shop gets ceil(4 / 2) workers while the quiet one waits.
    const second = createPool(4)
    const blockers = [0, 1, 2, 3].map((n) =>
      second.run(`blocker-${n}`, customer(`blocker-${n}`, `x${n}`, `blocker-${n}`), { ms: 60 }),
    )
    await second.startedCount(4)
    const together = [
      // Long enough that every blocker ends before any of these.
      ...Array.from({ length: 6 }, (_, n) =>
        second.run(`busy-${n}`, customer(`busy-${n}`, `b${n}`, 'busy'), { ms: 1000 }),
      ),
      ...[0, 1].map((n) => second.run(`quiet-${n}`, customer(`quiet-${n}`, `q${n}`, 'quiet'), { ms: 1000 })),
    ]
    await Promise.all([...blockers, ...together])
    expect(second.started.slice(4, 8).sort()).toEqual(['busy-0', 'busy-1', 'quiet-0', 'quiet-1'])
  })

  it("stops the newest build of a shop past its half for another shop's waiting build, and runs it again after", async () => {
    const { run, started, startedCount } = createPool(2)
    const ended: string[] = []
    const runaway = [0, 1].map((n) =>
      run(`runaway-${n}`, customer(`hostile-${n}`, `h${n}`, 'hostile'), { ms: 1500 }).then((name) => ended.push(name)),
    )
    await startedCount(2)
    await run('small', customer('other', 'o1', 'other')).then((name) => ended.push(name))
    await Promise.all(runaway)
    expect(started).toEqual(['runaway-0', 'runaway-1', 'small', 'runaway-1'])
    expect(ended).toEqual(['small', 'runaway-0', 'runaway-1'])
  })

  it("keeps the worker another shop's customer freed from a shop past its half for a moment, so the customer's next build stops nothing", async () => {
    const { run, started, startedCount } = createPool(2, 0, 1000)
    const runaway = [0, 1].map((n) => run(`runaway-${n}`, customer(`hostile-${n}`, `h${n}`, 'hostile'), { ms: 1500 }))
    await startedCount(2)
    // The first move stops runaway-1; each next one comes 50 ms after the one before was answered, as over HTTP.
    for (const move of ['move-1', 'move-2', 'move-3']) {
      await run(move, customer('other', 'o1', 'other'))
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await Promise.all(runaway)
    expect(started).toEqual(['runaway-0', 'runaway-1', 'move-1', 'move-2', 'move-3', 'runaway-1'])
  })

  it('takes a cancelled task out of the queue, and stops a cancelled running one on a fresh worker', async () => {
    const { run, started, startedCount } = createPool(1)
    const running = new AbortController()
    const queued = new AbortController()
    const long = run('long', customer('a', 'a'), { ms: 60_000, signal: running.signal })
    await startedCount(1)
    const waiting = run('waiting', customer('b', 'b'), { signal: queued.signal })
    const after = run('after', customer('c', 'c'))
    queued.abort(new Error('superseded'))
    await expect(waiting).rejects.toThrow('superseded')
    running.abort(new Error('gone'))
    await expect(long).rejects.toThrow('gone')
    await expect(after).resolves.toBe('after')
    expect(started).toEqual(['long', 'after'])
  })

  it('stops a task past its time limit and goes on with the next on the spare worker booted before', async () => {
    const pool = new WorkerPool<Job, Ran>({ script: SCRIPT, size: 1, backgroundSize: 0, maxHeapMb: 64 })
    const fairness = customer('a', 'a')
    const slow = pool.run({ name: 'slow', ms: 60_000 }, { timeLimitMs: 200, fairness })
    await expect(slow).rejects.toBeInstanceOf(TimeLimitError)
    const stopped = process.hrtime.bigint()
    const next = await pool.run({ name: 'next', ms: 1 }, { timeLimitMs: 10_000, fairness })
    expect(next.booted).toBeLessThan(stopped)
  })
})

describe('meshBuffers', () => {
  it("lists a cached mesh's one buffer once, so that a worker can hand it back", () => {
    const part = { color: [1, 1, 1, 1] as const, positions: new Float32Array(9), indices: Uint32Array.of(0, 1, 2) }
    const cached = deserializeMesh(serializeMesh({ parts: [part, { ...part, name: 'second' }] }))
    expect(meshBuffers(cached)).toHaveLength(1)
    const handedBack = structuredClone(cached, { transfer: meshBuffers(cached) })
    expect([...handedBack.parts[1]!.indices]).toEqual([0, 1, 2])
    expect(() =>
      structuredClone(cached, {
        transfer: [cached.parts[0]!.positions.buffer, cached.parts[0]!.indices.buffer] as ArrayBuffer[],
      }),
    ).toThrow()
  })
})
