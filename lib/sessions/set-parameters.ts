import { AppError } from '@/lib/api/errors'
import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import { buildSessionModel } from '@/lib/sessions/build-session-model'
import type { LoadedSession } from '@/lib/sessions/find-session'
import { describeModelInputs, type ModelInputs } from '@/lib/sessions/model-inputs'
import { toParameterSet, validateValues, type Values } from '@/lib/sessions/parameter-values'
import { readParameters } from '@/lib/sessions/read-parameters'
import type { ParameterSet } from '@/lib/sessions/schemas'
import { schedulingOf } from '@/lib/sessions/session-scheduling'

const MAX_ATTEMPTS = 5

class SupersededError extends Error {
  constructor() {
    super('superseded by a newer change of the session')
  }
}

interface Update {
  /** What this update sets: its own changes over those of the update it superseded. */
  changes: Values
  controller: AbortController
  stored: Promise<ParameterSet>
  /** The update that took over from this one. */
  next?: Update
}

// The newest unfinished update of each session in this process. A newer PUT takes over: the
// older one's build is cancelled (unless another session waits for it too) and its request
// answers the newest state. Across processes the version check in store() makes a PUT that
// lost a race start over on the newer values.
const updates = new Map<string, Update>()

/**
 * Validates, builds and stores new values; answers the full parameter set of the newest
 * stored state. Values and the state `model`/`objectinfo`/`log` describe are written in one
 * row update, after the build, so readers never see values without their build.
 */
export async function setParameters(session: LoadedSession, body: Record<string, { value: unknown }>): Promise<ParameterSet> {
  const inputs = await describeModelInputs(session.configurator, session.id)
  const { definitions } = await readParameters(inputs, schedulingOf(session))
  const previous = updates.get(session.id)
  const changes = { ...previous?.changes, ...validateValues(definitions, body, new Set(inputs.sessionFileNames.keys())) }
  const controller = new AbortController()
  const update: Update = { changes, controller, stored: store(session, inputs, changes, controller.signal) }
  updates.set(session.id, update)
  void update.stored.catch(() => {}).finally(() => updates.get(session.id) === update && updates.delete(session.id))
  if (previous) {
    previous.next = update
    previous.controller.abort(new SupersededError())
  }
  return answer(update)
}

/** The state `update` stored, or, once a newer update took over, the state that one stores. */
async function answer(update: Update): Promise<ParameterSet> {
  const state = await update.stored.catch((error: unknown) => {
    if (!update.next) throw error
  })
  return update.next ? answer(update.next) : state!
}

async function store(session: LoadedSession, inputs: ModelInputs, changes: Values, signal: AbortSignal): Promise<ParameterSet> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await db.configSession.findUniqueOrThrow({ where: { id: session.id }, select: { values: true, version: true } })
    const storedValues = { ...(current.values as Values), ...changes }
    const model = await buildSessionModel({ session, storedValues, inputs, signal }, 'preview')
    signal.throwIfAborted()
    const { count } = await db.configSession.updateMany({
      where: { id: session.id, version: current.version },
      data: { values: storedValues as Prisma.InputJsonObject, version: { increment: 1 }, configuredAt: new Date() },
    })
    if (count === 1) return toParameterSet(model.definitions, model.values)
  }
  throw new AppError('conflict', 'The session changed too often at once; try again')
}
