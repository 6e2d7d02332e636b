import { AppError } from '@/lib/api/errors'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import type { Prisma } from '@/lib/generated/prisma/client'
import { listen, notify, onReconnect } from '@/lib/queue/notifications'

// Setting a session's values is an update. It takes the session's next version and adds its
// changes to the pending ones, builds the stored values with all pending changes over them, and
// stores the result in one row update, so readers never see values without their build. Only
// the newest update stores. A newer one, begun on any instance, cancels the older one's build
// (over NOTIFY), and the older request answers once the newer one has stored: its changes are
// among those stored. When the newer one ends without storing, or its instance goes away, the
// older one carries on itself.

/** An update began: `{session, version}`. */
const BEGUN_CHANNEL = 'paraform_session_begun'
/** An update ended: `{session, version, stored}`. */
const ENDED_CHANNEL = 'paraform_session_ended'

/** How often a request takes over from newer updates that did not store, before giving up. */
const MAX_TAKEOVERS = 5

export type StoredValues = Prisma.JsonObject

interface Notice {
  session: string
  version: number
  stored?: boolean
}

class SupersededError extends Error {
  constructor() {
    super('superseded by a newer change of the session')
  }
}

/** An update running in this process. */
interface Update {
  sessionId: string
  /** Its version; none before it began. */
  version: number
  /** The newest version heard of for its session. */
  newest: number
  /** The newest version heard to have ended without storing. */
  failed: number
  controller: AbortController
  /** Resolves at the next end of any update of the session, or when notices may have been lost. */
  ended: Promise<void>
  wake: () => void
}

const running = new Set<Update>()

function arm(update: Update): void {
  update.ended = new Promise((resolve) => (update.wake = resolve))
}

function wake(update: Update): void {
  update.wake()
  arm(update)
}

function supersede(update: Update): void {
  if (update.version < update.newest) update.controller.abort(new SupersededError())
}

function updatesOf(session: string): Update[] {
  return [...running].filter((update) => update.sessionId === session)
}

let subscribed: Promise<void> | undefined

function subscribe(): Promise<void> {
  subscribed ??= Promise.all([
    listen(BEGUN_CHANNEL, (payload) => {
      const { session, version } = JSON.parse(payload) as Notice
      for (const update of updatesOf(session)) {
        update.newest = Math.max(update.newest, version)
        supersede(update)
      }
    }),
    listen(ENDED_CHANNEL, (payload) => {
      const { session, version, stored } = JSON.parse(payload) as Notice
      for (const update of updatesOf(session)) {
        if (!stored) update.failed = Math.max(update.failed, version)
        wake(update)
      }
    }),
  ]).then(() => onReconnect(() => running.forEach(wake)))
  subscribed.catch(() => (subscribed = undefined))
  return subscribed
}

function announce(channel: string, notice: Notice): void {
  notify(channel, JSON.stringify(notice)).catch(() => {})
}

interface SessionRow {
  values: StoredValues
  version: number
  storedVersion: number
  pendingValues: StoredValues
}

/** Gives `update` the session's next version and adds `changes` to the pending ones. */
async function begin(update: Update, changes: StoredValues): Promise<SessionRow> {
  const [row] = await db.$queryRaw<SessionRow[]>`
    UPDATE "ConfigSession" SET "version" = "version" + 1, "pendingValues" = "pendingValues" || ${JSON.stringify(changes)}::jsonb
    WHERE "id" = ${update.sessionId}::uuid
    RETURNING "values", "version", "storedVersion", "pendingValues"`
  if (!row) throw new AppError('not_found', 'The session was deleted')
  update.version = row.version
  update.controller = new AbortController()
  supersede(update)
  announce(BEGUN_CHANNEL, { session: update.sessionId, version: row.version })
  return row
}

function readRow(sessionId: string): Promise<SessionRow> {
  return db.configSession.findUniqueOrThrow({
    where: { id: sessionId },
    select: { values: true, version: true, storedVersion: true, pendingValues: true },
  }) as Promise<SessionRow>
}

/** Stores `values` as the state of `update` if it is still the newest; false if not. */
async function commit(update: Update, values: StoredValues, valueWarnings: string): Promise<boolean> {
  const { count } = await db.configSession.updateMany({
    where: { id: update.sessionId, version: update.version },
    data: { values, valueWarnings, storedVersion: update.version, pendingValues: {}, configuredAt: new Date() },
  })
  return count === 1
}

/** Resolves true when `ended` does, false after the longest a build may take. */
function waitFor(ended: Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, (env.BUILD_TIME_LIMIT_SECONDS + 30) * 1000, false)))
  return Promise.race([ended.then(() => true), timeout]).finally(() => clearTimeout(timer))
}

export interface SessionUpdate {
  changes: StoredValues
  /** Builds the model of the values to store. */
  build: (values: StoredValues, signal: AbortSignal) => Promise<void>
  /** What the session's log says about the values when this update stores them. */
  warnings?: string
}

/**
 * Applies `changes` to the session and answers the stored values that hold them: stored by this
 * request, after `build` made the model of them, or by a newer update that took over.
 */
export async function updateSession(sessionId: string, { changes, build, warnings = '' }: SessionUpdate): Promise<StoredValues> {
  await subscribe()
  const update = { sessionId, version: Number.POSITIVE_INFINITY, newest: 0, failed: 0, controller: new AbortController() } as Update
  arm(update)
  running.add(update)
  try {
    // Each row is read after taking the notice to wait for, so that no end is missed between.
    let ended = update.ended
    let row = await begin(update, changes)
    for (let takeovers = 0; ; ) {
      if (row.storedVersion >= update.version) return row.values
      if (row.version > update.version) {
        // A newer update stores this one's changes too, unless it ends without storing.
        const woken = await waitFor(ended)
        ended = update.ended
        row = await readRow(sessionId)
        if (row.storedVersion >= update.version || (woken && update.failed < row.version)) continue
        if (++takeovers > MAX_TAKEOVERS) throw new AppError('conflict', 'The session changed too often at once; try again')
        ended = update.ended
        row = await begin(update, changes)
        continue
      }
      const values = { ...row.values, ...row.pendingValues }
      try {
        await build(values, update.controller.signal)
        if (await commit(update, values, warnings)) {
          announce(ENDED_CHANNEL, { session: sessionId, version: update.version, stored: true })
          return values
        }
      } catch (error) {
        if (!(update.controller.signal.reason instanceof SupersededError)) throw error
      }
      ended = update.ended
      row = await readRow(sessionId)
    }
  } catch (error) {
    // Changes of a request that failed are not stored later by another one.
    if (Number.isFinite(update.version)) {
      await db.configSession.updateMany({ where: { id: sessionId, version: update.version }, data: { pendingValues: {} } }).catch(() => {})
      announce(ENDED_CHANNEL, { session: sessionId, version: update.version, stored: false })
    }
    throw error
  } finally {
    running.delete(update)
  }
}
