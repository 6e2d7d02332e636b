import { forgetRowsOf } from '@/lib/configurators/model-changes'
import { MODEL_CHANNEL } from '@/lib/configurators/model-memory'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { configuratorsUsing } from '@/lib/libraries/libraries'
import { logger } from '@/lib/log'
import { listen } from '@/lib/notifications'
import { schedulePreparation } from '@/lib/sessions/preparation'

// The effects of the model changes recorded with each write (lib/configurators/model-changes.ts)
// follow here, in each server process: one instance claims a change, forgets the rows it made
// stale everywhere (its writer did so too, unless it stopped first) and schedules the
// preparation it needs. A change stays recorded until its effects are set off (a model's until
// its preparation starts), and one claimed by an instance that stopped is taken over later.

/** Changes recorded together are taken up together. */
const GATHER_MS = 100
/** Changes whose writer stopped before its notification are found by this sweep (and at start). */
const SWEEP_MS = 30_000
const CLAIM_EXPIRES = '60 seconds'

interface RecordedChange {
  id: bigint
  kind: string
  subject: string
}

let following = false
let gathering: NodeJS.Timeout | undefined

/** Sets off the effects of every recorded model change: those left by a stopped process now, the others as they are recorded on any instance. */
export async function followModelChanges(): Promise<void> {
  if (following) return
  following = true
  await listen(MODEL_CHANNEL, takeUpSoon)
  setInterval(takeUpSoon, SWEEP_MS).unref()
  await applyModelChanges()
}

function takeUpSoon(): void {
  gathering ??= setTimeout(() => {
    gathering = undefined
    applyModelChanges().catch((error: unknown) => logger.warn({ err: error }, 'setting off model changes failed'))
  }, GATHER_MS).unref()
}

/** Claims the recorded changes nobody else holds and sets off their effects. */
export async function applyModelChanges(): Promise<void> {
  const changes = await db.$queryRaw<RecordedChange[]>`
    UPDATE "ModelChange" SET "claimedAt" = now()
    WHERE id IN (
      SELECT id FROM "ModelChange"
      WHERE "claimedAt" IS NULL OR "claimedAt" < now() - ${CLAIM_EXPIRES}::interval
      ORDER BY id FOR UPDATE SKIP LOCKED
    )
    RETURNING id, kind, subject`
  const distinct = new Map(changes.map((change) => [`${change.kind}:${change.subject}`, change]))
  for (const change of distinct.values()) await forgetRowsOf(change)
  const done: bigint[] = []
  for (const change of changes) {
    if (!env.PREPARE_MODELS || change.kind === 'configurator' || change.kind === 'session') done.push(change.id)
    else if (change.kind === 'model') schedulePreparation(change.subject, [change.id])
    else for (const model of await modelChangesOf(change)) schedulePreparation(model.subject, [model.id])
  }
  await db.modelChange.deleteMany({ where: { id: { in: done } } })
}

/** A library's change as a model change of each configurator using it, in its place. */
async function modelChangesOf(library: RecordedChange): Promise<RecordedChange[]> {
  const using = await configuratorsUsing(library.subject)
  return db.$transaction(async (tx) => {
    await tx.modelChange.delete({ where: { id: library.id } })
    const models: RecordedChange[] = []
    for (const subject of using)
      models.push(await tx.modelChange.create({ data: { kind: 'model', subject, claimedAt: new Date() } }))
    return models
  })
}
