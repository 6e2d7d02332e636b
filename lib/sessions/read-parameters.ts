import type { EngineLog, ParameterDefinition } from '@/lib/cad/engine'
import { getEngine } from '@/lib/cad/get-engine'
import type { Scheduling } from '@/lib/cad/worker-pool'
import { db } from '@/lib/db'
import { hashOf, type ModelInputs, readModelFiles } from '@/lib/sessions/model-inputs'

export interface ModelParameters {
  definitions: ParameterDefinition[]
  log: EngineLog
  /** Where this answer came from: `read` means the engine ran for it. */
  source: 'memory' | 'stored' | 'read'
}

const memory = new Map<string, Promise<ModelParameters>>()

/**
 * The model's parameters, read by the engine once per distinct source and limits, and cached
 * like builds: also when the read failed, so a runaway model costs its time limit once.
 */
export async function readParameters(inputs: ModelInputs, scheduling: Scheduling): Promise<ModelParameters> {
  // The limits belong to the key: a read stopped by a short limit may succeed under a longer one.
  const key = `parameters:${hashOf({ source: inputs.sourceHash, limits: inputs.limits })}`
  const known = memory.get(key)
  if (known) return { ...(await known), source: 'memory' }
  const result = load(key, inputs, scheduling)
  result.catch(() => memory.delete(key))
  memory.set(key, result)
  return result
}

async function load(key: string, inputs: ModelInputs, scheduling: Scheduling): Promise<ModelParameters> {
  const cached = await db.cacheEntry.findUnique({ where: { key } })
  if (cached) {
    const definitions = cached.data as unknown as ParameterDefinition[]
    return { definitions, log: { message: cached.logMessage, error: cached.logError }, source: 'stored' }
  }
  const { ok, parameters, log } = await getEngine(inputs.cadType).readParameters({
    files: await readModelFiles(inputs),
    mainFile: inputs.mainFile,
    ...inputs.limits,
    scheduling,
  })
  const data = { ok, data: parameters as object, logMessage: log.message, logError: log.error, sizeBytes: 0 }
  await db.cacheEntry.upsert({ where: { key }, create: { key, ...data }, update: data })
  return { definitions: parameters, log, source: 'read' }
}
