import type { EngineLog, ParameterDefinition } from '@/lib/cad/engine'
import { db } from '@/lib/db'

export interface ReadParameters {
  definitions: ParameterDefinition[]
  log: EngineLog
  /** Where this answer came from: `read` means the engine ran for it. */
  source: 'memory' | 'stored' | 'read'
}

// Parameter reads are cached beside builds, also when the read failed, so a runaway model
// costs its time limit once.

export async function loadParameters(key: string): Promise<ReadParameters | null> {
  const cached = await db.cacheEntry.findUnique({ where: { key } })
  if (!cached) return null
  return {
    definitions: cached.data as unknown as ParameterDefinition[],
    log: { message: cached.logMessage, error: cached.logError },
    source: 'stored',
  }
}

export async function storeParameters(
  key: string,
  ok: boolean,
  definitions: ParameterDefinition[],
  log: EngineLog,
): Promise<ReadParameters> {
  const data = { ok, data: definitions as object, logMessage: log.message, logError: log.error, sizeBytes: 0 }
  await db.cacheEntry.upsert({ where: { key }, create: { key, ...data }, update: data })
  return { definitions, log, source: 'read' }
}
