import { createHash } from 'node:crypto'
import type { EngineLimits, ModelFile } from '@/lib/cad/engine'
import { ZExtraSettings, type ExtraSettings } from '@/lib/configurators/schemas'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import type { Configurator } from '@/lib/generated/prisma/client'
import { blobStore } from '@/lib/storage/blob-store'

const CONFIGURATOR_ROOT = 'configurator/'

/** Everything a CAD run of a session depends on, by content hash, without reading any file. */
export interface ModelInputs {
  cadType: string
  cadVersion: string
  mainFile: string
  /** Paths as the model sees them: the configurator directory, with the session's files beside. */
  files: { path: string; blobHash: string }[]
  /** Session file id → the name the model sees it under. */
  sessionFileNames: Map<string, string>
  settings: ExtraSettings
  limits: EngineLimits
  /** Hash of engine, main file and all file contents. */
  sourceHash: string
}

export function readExtraSettings(configurator: Configurator): ExtraSettings {
  const result = ZExtraSettings.safeParse(configurator.extraSettings)
  return result.success ? result.data : {}
}

export async function describeModelInputs(configurator: Configurator, sessionId: string | null): Promise<ModelInputs> {
  const [configuratorFiles, sessionFiles] = await Promise.all([
    db.configuratorFile.findMany({ where: { configuratorId: configurator.id, path: { startsWith: CONFIGURATOR_ROOT } } }),
    sessionId ? db.sessionFile.findMany({ where: { sessionId } }) : [],
  ])
  const byPath = new Map(configuratorFiles.map((file) => [file.path.slice(CONFIGURATOR_ROOT.length), file.blobHash]))
  const taken = configuratorNames(configuratorFiles.map((file) => file.path))
  // A customer's file never replaces the designer's: names the configurator uses stay its own.
  for (const file of sessionFiles) if (!taken.has(file.name)) byPath.set(file.name, file.blobHash)
  const files = [...byPath].map(([path, blobHash]) => ({ path, blobHash })).sort((a, b) => a.path.localeCompare(b.path))
  const settings = readExtraSettings(configurator)
  const buildSeconds = Math.min(settings.limits?.buildSeconds ?? env.BUILD_TIME_LIMIT_SECONDS, env.BUILD_TIME_LIMIT_SECONDS)
  const { cadType, cadVersion, mainFile } = configurator
  return {
    cadType,
    cadVersion,
    mainFile,
    files,
    sessionFileNames: new Map(sessionFiles.map((file) => [file.id, file.name])),
    settings,
    limits: { timeLimitMs: buildSeconds * 1000, memoryLimitBytes: env.BUILD_MEMORY_LIMIT_MB * 1024 * 1024 },
    sourceHash: hashOf({ cadType, cadVersion, mainFile, files }),
  }
}

/** Every top-level name (file or folder) the configurator directory uses. */
export function configuratorNames(paths: string[]): Set<string> {
  return new Set(paths.filter((path) => path.startsWith(CONFIGURATOR_ROOT)).map((path) => path.slice(CONFIGURATOR_ROOT.length).split('/')[0]!))
}

export function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex')
}

export function readModelFiles(inputs: ModelInputs): Promise<ModelFile[]> {
  return Promise.all(inputs.files.map(async ({ path, blobHash }) => ({ path, data: new Uint8Array(await blobStore.readBuffer(blobHash)) })))
}
