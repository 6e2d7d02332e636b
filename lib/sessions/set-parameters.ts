import { AppError } from '@/lib/api/errors'
import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'
import { buildSessionModel } from '@/lib/sessions/build-session-model'
import type { LoadedSession } from '@/lib/sessions/find-session'
import { toParameterSet, validateValues, type Values } from '@/lib/sessions/parameter-values'
import { readParameters } from '@/lib/sessions/read-parameters'
import { describeModelInputs } from '@/lib/sessions/model-inputs'

const MAX_ATTEMPTS = 5

// PUTs on one session in this process run one after another; across processes the version
// check below makes a PUT that lost a race start over on the newer values.
const queues = new Map<string, Promise<unknown>>()

function serialized<T>(sessionId: string, run: () => Promise<T>): Promise<T> {
  const previous = queues.get(sessionId) ?? Promise.resolve()
  const current = previous.catch(() => {}).then(run)
  queues.set(sessionId, current)
  void current.finally(() => queues.get(sessionId) === current && queues.delete(sessionId)).catch(() => {})
  return current
}

/**
 * Validates, builds and stores new values; answers the full parameter set of the stored
 * state. Values and the state `model`/`objectinfo`/`log` describe are written in one row
 * update, after the build, so readers never see values without their build.
 */
export function setParameters(session: LoadedSession, body: Record<string, { value: unknown }>) {
  return serialized(session.id, async () => {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await db.configSession.findUniqueOrThrow({ where: { id: session.id }, select: { values: true, version: true } })
      const inputs = await describeModelInputs(session.configurator, session.id)
      const { definitions } = await readParameters(inputs)
      const changes = validateValues(definitions, body, new Set(inputs.sessionFileNames.keys()))
      const storedValues = { ...(current.values as Values), ...changes }
      const state = { configurator: session.configurator, sessionId: session.id, storedValues, inputs }
      const model = await buildSessionModel(state, 'preview')
      const { count } = await db.configSession.updateMany({
        where: { id: session.id, version: current.version },
        data: { values: storedValues as Prisma.InputJsonObject, version: { increment: 1 }, configuredAt: new Date() },
      })
      if (count === 1) return toParameterSet(model.definitions, model.values)
    }
    throw new AppError('conflict', 'The session changed too often at once; try again')
  })
}
