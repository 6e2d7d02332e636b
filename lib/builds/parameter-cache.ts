import { z } from 'zod'
import { type EngineLog, type ParameterDefinition, ZParameterDefinition } from '@/lib/cad/engine'
import { db } from '@/lib/db'
import { parseColumn, toJsonInput } from '@/lib/json-columns'

export interface ReadParameters {
  definitions: ParameterDefinition[]
  log: EngineLog
  /** Where this answer came from: `read` means the engine ran for it. */
  source: 'memory' | 'stored' | 'read'
}

// Parameter reads are cached beside builds, also when the read failed, so a runaway model
// costs its time limit once.

const ZDefinitions = z.array(ZParameterDefinition)

export async function loadParameters(key: string): Promise<ReadParameters | null> {
  const cached = await db.cacheEntry.findUnique({ where: { key } })
  if (!cached) return null
  return {
    definitions: parseColumn(ZDefinitions, cached.data, { table: 'CacheEntry', id: key, column: 'data' }),
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
  const data = {
    ok,
    data: toJsonInput(ZDefinitions, definitions),
    logMessage: log.message,
    logError: log.error,
    sizeBytes: 0,
  }
  await db.cacheEntry.upsert({ where: { key }, create: { key, ...data }, update: data })
  return { definitions, log, source: 'read' }
}
