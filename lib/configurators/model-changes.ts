import { forgetModelRows } from '@/lib/configurators/model-memory'
import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'

// Every write that changes what a configurator builds goes through `changeModel`: the change is
// recorded in the write's own transaction, so that its effects follow even when this process
// stops right after (lib/sessions/model-change-effects.ts takes up what is recorded).

/**
 * What changed, and so what follows:
 * - `model`: a configurator's model (its model files, main file, settings, presets): its rows
 *   are forgotten and its draft prepared again.
 * - `configurator`: its row or its renderer files, its releases, its removal: its rows are forgotten.
 * - `session`: a session's files: that session's rows are forgotten.
 * - `library`: an installed library: every model row is forgotten, and each configurator using it prepared again.
 */
export type ModelChangeKind = 'model' | 'configurator' | 'session' | 'library'

export interface ModelChange {
  kind: ModelChangeKind
  /** The configurator's or the session's id, or the library's name. */
  subject: string
}

/** Runs `write` and records `change` in one transaction, then forgets the rows it made stale on every instance. */
export async function changeModel<T>(
  change: ModelChange,
  write: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<T> {
  const result = await db.$transaction(async (tx) => {
    const written = await write(tx)
    await tx.modelChange.create({ data: change })
    return written
  })
  await forgetRowsOf(change)
  return result
}

/** Forgets the remembered rows a change made stale, here and on every instance (which also wakes their effects). */
export function forgetRowsOf({ kind, subject }: { kind: string; subject: string }): Promise<void> {
  return forgetModelRows(kind === 'library' ? '' : subject)
}
