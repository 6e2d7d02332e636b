import type { LibraryRef } from '@/lib/builds/library-files'
import type { EngineLimits } from '@/lib/cad/engine'
import { hostFonts } from '@/lib/cad/fonts/host-fonts'
import { readExtraSettings } from '@/lib/configurators/configurators'
import { modelRows } from '@/lib/configurators/model-memory'
import type { ExtraSettings } from '@/lib/configurators/schemas'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { hashOf } from '@/lib/hash-of'
import { Prisma } from '@/lib/generated/prisma/client'
import type { ConfiguratorContent } from '@/lib/releases/release-content'
import type { StoredFile } from '@/lib/storage/blob-store'

// What a model is made of, by content hash: the configurator's files, the session's beside
// them, the installed libraries and the fonts, with the settings and limits its runs take.

const CONFIGURATOR_ROOT = 'configurator/'

/** Everything a CAD run of a session depends on, by content hash, without reading any file. */
export interface ModelInputs {
  cadType: string
  cadVersion: string
  mainFile: string
  /** Paths as the model sees them: the configurator directory, with the session's files beside. */
  files: { path: string; blobHash: string }[]
  libraries: LibraryRef[]
  /** Session file id → the name the model sees it under. */
  sessionFileNames: Map<string, string>
  settings: ExtraSettings
  limits: EngineLimits
  /** The fonts builds use (lib/cad/fonts/host-fonts.ts); a snapshot's own files of them when this machine's differ. */
  fontsHash: string
  fonts?: StoredFile[]
  /** Hash of engine, main file and all file contents. */
  sourceHash: string
}

interface InputRow {
  kind: 'configurator' | 'session' | 'library'
  /** A session file's id. */
  id: string | null
  /** A configurator file's path, a session file's or a library's name. */
  name: string
  /** A file's blob, a library version's content hash. */
  hash: string
}

const inputRows = modelRows<InputRow[]>('model inputs')

/** The configurator's files (the release's or the draft's), the session's and the installed libraries (by name, as build keys list them): every request of a session reads them, remembered until one changes. */
async function readInputRows(content: ConfiguratorContent, sessionId: string | null): Promise<InputRow[]> {
  return (await inputRows.get(`${content.release?.id ?? content.id}:${sessionId}`, () =>
    queryInputRows(content, sessionId),
  ))!
}

function queryInputRows(content: ConfiguratorContent, sessionId: string | null): Promise<InputRow[]> {
  const files = content.release
    ? Prisma.sql`SELECT "path", "blobHash" FROM "ReleaseFile" WHERE "releaseId" = ${content.release.id}::uuid`
    : Prisma.sql`SELECT "path", "blobHash" FROM "ConfiguratorFile" WHERE "configuratorId" = ${content.id}::uuid`
  return db.$queryRaw<InputRow[]>`
    SELECT 'configurator' AS kind, NULL AS id, "path" AS name, "blobHash" AS hash FROM (${files}) AS files
      WHERE starts_with("path", ${CONFIGURATOR_ROOT})
    UNION ALL SELECT 'session', "id", "name", "blobHash" FROM "SessionFile" WHERE "sessionId" = ${sessionId}::uuid
    UNION ALL SELECT 'library', NULL, "name", "contentHash" FROM "Library"
    ORDER BY name`
}

export async function describeModelInputs(
  configurator: ConfiguratorContent,
  sessionId: string | null,
): Promise<ModelInputs> {
  const rows = await readInputRows(configurator, sessionId)
  const ofKind = (kind: InputRow['kind']) => rows.filter((row) => row.kind === kind)
  const [configuratorFiles, sessionFiles] = [ofKind('configurator'), ofKind('session')]
  const libraries: LibraryRef[] = ofKind('library').map(({ name, hash }) => ({ name, contentHash: hash }))
  const byPath = new Map(configuratorFiles.map((file) => [file.name.slice(CONFIGURATOR_ROOT.length), file.hash]))
  const taken = configuratorNames(configuratorFiles.map((file) => file.name))
  // A customer's file never replaces the designer's: names the configurator uses stay its own.
  for (const file of sessionFiles) if (!taken.has(file.name)) byPath.set(file.name, file.hash)
  const files = [...byPath].map(([path, blobHash]) => ({ path, blobHash })).sort((a, b) => a.path.localeCompare(b.path))
  const settings = readExtraSettings(configurator)
  const buildSeconds = Math.min(
    settings.limits?.buildSeconds ?? env.BUILD_TIME_LIMIT_SECONDS,
    env.BUILD_TIME_LIMIT_SECONDS,
  )
  const { cadType, cadVersion, mainFile } = configurator
  const fontsHash = hostFonts().hash
  return {
    cadType,
    cadVersion,
    mainFile,
    files,
    libraries,
    sessionFileNames: new Map(sessionFiles.map((file) => [file.id!, file.name])),
    settings,
    limits: { timeLimitMs: buildSeconds * 1000, memoryLimitBytes: env.BUILD_MEMORY_LIMIT_MB * 1024 * 1024 },
    fontsHash,
    sourceHash: hashOf({ cadType, cadVersion, mainFile, files, libraries, fonts: fontsHash }),
  }
}

/** Every top-level name (file or folder) the configurator directory uses. */
export function configuratorNames(paths: string[]): Set<string> {
  return new Set(
    paths
      .filter((path) => path.startsWith(CONFIGURATOR_ROOT))
      .map((path) => path.slice(CONFIGURATOR_ROOT.length).split('/')[0]!),
  )
}
