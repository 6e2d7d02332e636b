import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { db } from '@/lib/db'
import { parseColumn, toJsonInput } from '@/lib/json-columns'
import { freeTurnsOf, heldTurnFlags } from '@/lib/queue/build-turns'
import { CAD_TASK } from '@/lib/queue/cad-tasks'

/** How often a live worker process beats, and how long without a beat makes it dead. */
export const BEAT_MS = 2000
export const DEAD_AFTER_MS = 10_000

/** What `BuildWorker.running` stores: the builds the worker runs now. */
const ZRunningBuilds = z.array(
  z.object({
    key: z.string(),
    flags: z.array(z.string()),
    /** On the low-priority slot: it holds no share of customers' slots. */
    background: z.boolean().optional(),
  }),
)
type RunningBuild = z.infer<typeof ZRunningBuilds>[number]

type Client = Pick<typeof db, 'buildWorker' | 'buildTurn' | '$queryRaw'>

/** The workers that beat lately, each with the builds it runs. */
export async function liveWorkers(client: Client = db) {
  const workers = await client.buildWorker.findMany({ where: { beatAt: { gt: new Date(Date.now() - DEAD_AFTER_MS) } } })
  return workers.map((worker) => ({
    ...worker,
    running: parseColumn(ZRunningBuilds, worker.running, { table: 'BuildWorker', id: worker.id, column: 'running' }),
  }))
}

/** Taken while a worker decides whether a build may start and writes it down, so that no two decide at once. */
const ADMISSION_LOCK = 0x70617261 // "para"

/** The configurator and application flags whose customers' builds hold half of all live workers' slots. */
function fullFlagsOf(workers: Awaited<ReturnType<typeof liveWorkers>>): string[] {
  const slots = workers.reduce((total, worker) => total + worker.slots, 0)
  const half = Math.ceil(slots / 2)
  const holding = new Map<string, number>()
  for (const build of workers.flatMap((worker) => worker.running)) {
    for (const flag of build.background ? [] : build.flags) holding.set(flag, (holding.get(flag) ?? 0) + 1)
  }
  return [...holding].filter(([, count]) => count >= half).map(([flag]) => flag)
}

/**
 * The full flags (fullFlagsOf) while a customer's build that could start waits, carrying none of
 * them nor a held turn's; none otherwise. A share holds a configurator back only when someone else
 * waits: alone, it takes every idle worker, and when another's build comes, the shares apply at
 * the next pick (no running build is stopped).
 */
async function contestedFlags(client: Client, turns: string[]): Promise<string[]> {
  const full = fullFlagsOf(await liveWorkers(client))
  if (full.length === 0) return []
  const [row] = await client.$queryRaw<{ waiting: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM graphile_worker.jobs
      WHERE task_identifier = ${CAD_TASK} AND locked_at IS NULL AND run_at <= now() AND attempts < max_attempts
        AND NOT (coalesce(flags, '{}'::jsonb) ?| ${[...full, ...turns]}::text[])
    ) AS waiting`
  return row?.waiting ? full : []
}

/**
 * This process's row among the live workers: what it runs and how many it can, beaten every
 * BEAT_MS, and written at once when a build starts or ends so fair shares see it.
 */
export class Heartbeat {
  readonly id = randomUUID()
  private readonly queueIds = new Set<string>()
  private readonly running = new Map<string, RunningBuild>()
  private timer?: NodeJS.Timeout

  constructor(private readonly slots: number) {}

  async start(): Promise<void> {
    await db.buildWorker.create({ data: { id: this.id, slots: this.slots } })
    this.timer = setInterval(() => void this.beat().catch(() => {}), BEAT_MS)
    this.timer.unref()
  }

  addQueueId(queueId: string): void {
    this.queueIds.add(queueId)
    void this.beat().catch(() => {})
  }

  /**
   * Whether `build` may start beside what every worker runs now, and if so its row says it runs
   * before another worker decides: graphile-worker's forbidden flags are read before a job is
   * picked, so two workers picking at once both saw the configurator's share free (and both ran).
   */
  async admit(build: RunningBuild): Promise<boolean> {
    return db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ADMISSION_LOCK})`
      if (!build.background) {
        const contested = await contestedFlags(tx, await heldTurnFlags(tx))
        if (build.flags.some((flag) => contested.includes(flag))) return false
      }
      this.running.set(build.key, build)
      try {
        await tx.buildWorker.update({
          where: { id: this.id },
          data: { beatAt: new Date(), running: this.runningInput() },
        })
      } catch (error) {
        this.running.delete(build.key)
        throw error
      }
      return true
    })
  }

  private runningInput() {
    return toJsonInput(ZRunningBuilds, [...this.running.values()])
  }

  ended(key: string): Promise<void> {
    this.running.delete(key)
    return this.beat()
  }

  private async beat(): Promise<void> {
    const data = { beatAt: new Date(), queueIds: [...this.queueIds], running: this.runningInput() }
    // A worker taken for dead after a long pause comes back as a new row.
    await db.buildWorker.upsert({
      where: { id: this.id },
      create: { id: this.id, slots: this.slots, ...data },
      update: data,
    })
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await db.buildWorker.deleteMany({ where: { id: this.id } })
  }
}

/** Removes the rows of workers that stopped beating (killed, lost their machine), and frees their turns; answers their queue ids. */
export async function takeDeadWorkers(): Promise<string[]> {
  const dead = await db.buildWorker.findMany({ where: { beatAt: { lte: new Date(Date.now() - DEAD_AFTER_MS) } } })
  const taken: string[] = []
  for (const worker of dead) {
    // Whoever deletes the row unlocks its jobs, so two workers noticing one death do it once,
    // and a worker that beat again meanwhile keeps its row.
    const { count } = await db.buildWorker.deleteMany({ where: { id: worker.id, beatAt: worker.beatAt } })
    if (count !== 1) continue
    await freeTurnsOf([worker.id])
    taken.push(...worker.queueIds)
  }
  return taken
}

/**
 * The turns held (lib/queue/build-turns.ts), and configurator and application flags that already
 * hold half of all live workers' slots with customers' builds while others' wait: their jobs wait
 * while others run (the fair share of the security issue, across every worker). graphile-worker
 * asks before each job it looks for: read fresh each time, since a copy kept until another
 * worker's notice arrives let two workers take one configurator's builds at once (seen in CI).
 * Background work of a configurator waits while its customers' builds fill their half, whether or
 * not anyone else waits: customers first.
 */
export async function fullSharedFlags({ background }: { background: boolean }): Promise<string[]> {
  const turns = await heldTurnFlags()
  return [...turns, ...(background ? fullFlagsOf(await liveWorkers()) : await contestedFlags(db, turns))]
}
