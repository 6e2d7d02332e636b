import { isDeepStrictEqual } from 'node:util'
import { AppError } from '@/lib/api/errors'
import { db } from '@/lib/db'
import { parseColumn } from '@/lib/json-columns'
import { type Values, ZValues } from '@/lib/cad/engine'
import type { Prisma } from '@/lib/generated/prisma/client'
import { listen, notify } from '@/lib/notifications'
import { forgetSessionRows, rememberWrite } from '@/lib/sessions/session-rows'

// Setting a session's values stores them at once, merged over the stored ones in one row update
// that also gives the session its next version, and the request answers then: the model of the
// stored values is built meanwhile, so the engine runs while the answer travels and the customer's
// page asks for the model, which waits for that build (never an older one). The build even starts
// before the write, from the values as the request read them: the write then only confirms them.
// A newer update, begun on any instance, stops the older one's build unless a request waits for
// its model.

/** An update stored: `{session, version}`. */
const STORED_CHANNEL = 'paraform_session_stored'

interface Notice {
  session: string
  version: number
}

class SupersededError extends Error {
  constructor() {
    super('superseded by a newer change of the session')
  }
}

/** The build of each session's newest values started in this process; `version` once they are stored. */
const building = new Map<string, { version: number; controller: AbortController }>()

/** Stops the session's build started here for a version older than `version`. */
function supersede({ session, version }: Notice): void {
  const current = building.get(session)
  if (!current || current.version >= version) return
  current.controller.abort(new SupersededError())
  building.delete(session)
}

/** Starts the build of `values`, the session's newest here: whatever this process built for the session before is moot. */
function startBuild(
  sessionId: string,
  values: Values,
  build: SessionUpdate['build'],
): { version: number; controller: AbortController } {
  building.get(sessionId)?.controller.abort(new SupersededError())
  const started = { version: Number.POSITIVE_INFINITY, controller: new AbortController() }
  building.set(sessionId, started)
  // Whoever reads the model hears how its build went; a build nobody asks for is forgotten.
  void build(values, started.controller.signal)
    .catch(() => {})
    .finally(() => building.get(sessionId) === started && building.delete(sessionId))
  return started
}

let subscribed: Promise<void> | undefined

function subscribe(): Promise<void> {
  // A notice lost to a dropped connection leaves an older build running: time spent, never a wrong answer.
  subscribed ??= listen(STORED_CHANNEL, (payload) => supersede(JSON.parse(payload) as Notice))
  subscribed.catch(() => (subscribed = undefined))
  return subscribed
}

export interface SessionUpdate {
  /** The session's values as the request read them. */
  current: Values
  changes: Values
  /** What the session's log says about the values. */
  warnings?: string
  /** Builds the model of the stored values; stopped at the signal's abort. */
  build: (values: Values, signal: AbortSignal) => Promise<unknown>
}

/** Each session's last update begun in this process. */
const storing = new Map<string, Promise<unknown>>()

/**
 * Stores the changes after the session's updates begun here before, so that this process answers
 * its updates of one session in the order they were stored: on PostgreSQL the row lock orders the
 * writes, but their results arrive on different connections, and the last answer a page hears
 * must be the state the session keeps.
 */
function store(sessionId: string, changes: Values, warnings: string) {
  const stored = (storing.get(sessionId) ?? Promise.resolve())
    .catch(() => {})
    .then(async () => {
      const rows = await db.$queryRaw<{ values: Prisma.JsonValue; version: number; configuredAt: Date }[]>`
        UPDATE "ConfigSession" SET "version" = "version" + 1, "values" = "values" || ${JSON.stringify(changes)}::jsonb,
          "valueWarnings" = ${warnings}, "configuredAt" = now()
        WHERE "id" = ${sessionId}::uuid
        RETURNING "values", "version", "configuredAt"`
      if (rows[0]) rememberWrite(sessionId, { ...rows[0], valueWarnings: warnings })
      else forgetSessionRows(sessionId)
      return rows
    })
  storing.set(sessionId, stored)
  void stored.catch(() => {}).finally(() => storing.get(sessionId) === stored && storing.delete(sessionId))
  return stored
}

/** Stores `changes` over the session's values and starts building them; answers the stored values, which hold them. */
export async function updateSession(
  sessionId: string,
  { current, changes, warnings = '', build }: SessionUpdate,
): Promise<Values> {
  await subscribe()
  const expected = { ...current, ...changes }
  let started = startBuild(sessionId, expected, build)
  const [row] = await store(sessionId, changes, warnings).catch(
    (error: unknown) => (started.controller.abort(error), Promise.reject(error)),
  )
  if (!row) {
    started.controller.abort(new SupersededError())
    throw new AppError('not_found', 'The session was deleted')
  }
  const values = parseColumn(ZValues, row.values, { table: 'ConfigSession', id: sessionId, column: 'values' })
  // Another update was stored in between: the stored values are not the ones building.
  if (!isDeepStrictEqual(values, expected)) started = startBuild(sessionId, values, build)
  started.version = row.version
  const notice = { session: sessionId, version: row.version }
  supersede(notice)
  notify(STORED_CHANNEL, JSON.stringify(notice)).catch(() => {})
  return values
}
