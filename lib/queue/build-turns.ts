import { db } from '@/lib/db'
import { notify } from '@/lib/notifications'

// One build at a time per session or customer (and per lane of its background work), across
// every worker of every machine. Not graphile-worker's named queues: it locks every free queue
// in each look for a job, so two workers looking at once found nothing and slept until their
// next poll (a second), and a queue stayed locked until its job was marked done, after its asker
// had heard and asked for the next build. A turn is taken when a job starts, a row whose key is
// the turn, so that two jobs of one turn never run together; while it is held, the turn's flag
// keeps the other jobs of it in the queue.

/** The flag of a job's turn, forbidden while another job holds the turn. */
export function turnFlag(turn: string): string {
  return `turn:${turn}`
}

/** Takes `turn` for the job `key` on `workerId`; false when another job holds it. */
export async function takeTurn(turn: string, key: string, workerId: string): Promise<boolean> {
  const taken =
    await db.$executeRaw`INSERT INTO "BuildTurn" ("turn", "key", "workerId") VALUES (${turn}, ${key}, ${workerId}) ON CONFLICT ("turn") DO NOTHING`
  return taken === 1
}

/** Frees the turn the job `key` holds, and tells idle workers that its other jobs may start. */
export async function freeTurn(turn: string, key: string): Promise<void> {
  await db.buildTurn.deleteMany({ where: { turn, key } })
  await wakeIdleWorkers()
}

/** The flags of the turns held now. */
export async function heldTurnFlags(client: Pick<typeof db, 'buildTurn'> = db): Promise<string[]> {
  return (await client.buildTurn.findMany({ select: { turn: true } })).map(({ turn }) => turnFlag(turn))
}

/** Frees the turns of workers that died. */
export async function freeTurnsOf(workerIds: string[]): Promise<void> {
  await db.buildTurn.deleteMany({ where: { workerId: { in: workerIds } } })
}

/**
 * graphile-worker tells nobody when jobs become free without an insert (a turn or a share
 * freed, a dead worker's jobs unlocked); its own insert notice makes idle workers look again.
 */
export async function wakeIdleWorkers(): Promise<void> {
  await notify('jobs:insert', '{"count":1}')
}
