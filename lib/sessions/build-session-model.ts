import { type CachedBuild, getCachedBuild } from '@/lib/cad/build-cache'
import type { ParameterDefinition } from '@/lib/cad/engine'
import { getEngine } from '@/lib/cad/get-engine'
import type { LoadedSession } from '@/lib/sessions/find-session'
import { describeModelInputs, hashOf, type ModelInputs, readModelFiles } from '@/lib/sessions/model-inputs'
import { effectiveValues, type Values } from '@/lib/sessions/parameter-values'
import { readParameters } from '@/lib/sessions/read-parameters'
import { runSessionBuild, schedulingOf } from '@/lib/sessions/session-scheduling'

export type Quality = 'preview' | 'final'

export interface SessionModel {
  inputs: ModelInputs
  definitions: ParameterDefinition[]
  values: Values
  build: CachedBuild
}

export interface SessionState {
  session: LoadedSession
  /** The values the session stores (only those set); defaults fill the rest. */
  storedValues: Values
  /** Already described inputs of this session, to save reading them again. */
  inputs?: ModelInputs
  /** Aborting stops waiting for the build, and stops the build when nobody else waits for it. */
  signal?: AbortSignal
}

/** Parameters and effective values of a session state, without building. */
export async function resolveSessionState({ session, storedValues, ...known }: SessionState) {
  const inputs = known.inputs ?? (await describeModelInputs(session.configurator, session.id))
  const { definitions } = await readParameters(inputs, schedulingOf(session))
  const values = effectiveValues(definitions, storedValues, new Set(inputs.sessionFileNames.keys()))
  return { inputs, definitions, values }
}

/**
 * The model of exactly this state at this quality: from the cache when any session built
 * the same inputs before, otherwise built once in the worker pool.
 */
export async function buildSessionModel(state: SessionState, quality: Quality): Promise<SessionModel> {
  const { inputs, definitions, values } = await resolveSessionState(state)
  const overrides = inputs.settings.quality?.[quality] ?? {}
  // File parameters hold a session file id; the model sees the file under its name.
  const engineValues = Object.fromEntries(
    definitions.map((definition) => {
      const value = values[definition.key]!
      return [definition.key, definition.kind === 'file' ? (inputs.sessionFileNames.get(String(value)) ?? '') : value]
    }),
  )
  const sortedValues = Object.fromEntries(Object.entries(engineValues).sort(([a], [b]) => a.localeCompare(b)))
  // The limits belong to the key: a build stopped by a short limit may succeed under a longer one.
  const key = hashOf({ source: inputs.sourceHash, values: sortedValues, overrides, limits: inputs.limits })
  const build = await getCachedBuild(
    key,
    async (signal) => {
      const files = await readModelFiles(inputs)
      return runSessionBuild(state.session, signal, (scheduling) =>
        getEngine(inputs.cadType).build({ files, mainFile: inputs.mainFile, values: engineValues, overrides, ...inputs.limits, scheduling }),
      )
    },
    state.signal,
  )
  return { inputs, definitions, values, build }
}
