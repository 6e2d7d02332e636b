import type { EngineLog, ParameterDefinition } from '@/lib/cad/engine'
import { getEngine } from '@/lib/cad/get-engine'
import { db } from '@/lib/db'
import { type ModelInputs, readModelFiles } from '@/lib/sessions/model-inputs'

export interface ModelParameters {
  definitions: ParameterDefinition[]
  log: EngineLog
}

const memory = new Map<string, Promise<ModelParameters>>()

/** The model's parameters, read by the engine once per distinct source and cached like builds. */
export function readParameters(inputs: ModelInputs): Promise<ModelParameters> {
  const key = `parameters:${inputs.sourceHash}`
  let result = memory.get(key)
  if (!result) {
    result = load(key, inputs)
    result.catch(() => memory.delete(key))
    memory.set(key, result)
  }
  return result
}

async function load(key: string, inputs: ModelInputs): Promise<ModelParameters> {
  const cached = await db.cacheEntry.findUnique({ where: { key } })
  if (cached) return { definitions: cached.data as unknown as ParameterDefinition[], log: { message: cached.logMessage, error: cached.logError } }
  const { ok, parameters, log } = await getEngine(inputs.cadType).readParameters({
    files: await readModelFiles(inputs),
    mainFile: inputs.mainFile,
    ...inputs.limits,
  })
  if (!ok) {
    // Not cached: a crash or time-out under load must not make the model parameterless for good.
    memory.delete(key)
    return { definitions: [], log }
  }
  const data = { ok, data: parameters as object, logMessage: log.message, logError: log.error, sizeBytes: 0 }
  await db.cacheEntry.upsert({ where: { key }, create: { key, ...data }, update: data })
  return { definitions: parameters, log }
}
