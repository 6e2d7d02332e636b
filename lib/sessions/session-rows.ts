import { db } from '@/lib/db'
import { env } from '@/lib/env'
import type { ConfigSession } from '@/lib/generated/prisma/client'

// On the embedded database this process is the only one that writes sessions (lib/embedded-lock.ts):
// it remembers each session's row as it last read or wrote it, so that a move's requests read no
// row and the move's one query is the write it must make. On PostgreSQL other instances write the
// same rows, and every request reads the row.

const ENTRIES = 10_000

const rows = env.DATABASE_URL ? undefined : new Map<string, ConfigSession>()
/** Counts writes and forgets: a row read while one happened is not remembered. */
let generation = 0

/** The session's row, remembered or read. */
export async function readSessionRow(sessionId: string): Promise<ConfigSession | null> {
  const known = rows?.get(sessionId)
  if (known) return known
  const readAt = generation
  const row = await db.configSession.findUnique({ where: { id: sessionId } })
  if (row && readAt === generation) remember(row)
  return row
}

/** A row just created or read whole. */
export function remember(row: ConfigSession): void {
  if (!rows) return
  rows.delete(row.id)
  rows.set(row.id, row)
  for (const oldest of rows.keys()) {
    if (rows.size <= ENTRIES) break
    rows.delete(oldest)
  }
}

/** What a write of the session stored; a write of an older version (answered late) changes nothing. */
export function rememberWrite(sessionId: string, written: Partial<ConfigSession>): void {
  generation++
  const known = rows?.get(sessionId)
  if (!known || (written.version !== undefined && written.version < known.version)) return
  rows!.set(sessionId, { ...known, ...written })
}

/** Forgets the session's row, or every row (after a delete that cascades to sessions). */
export function forgetSessionRows(sessionId?: string): void {
  generation++
  if (sessionId === undefined) rows?.clear()
  else rows?.delete(sessionId)
}
