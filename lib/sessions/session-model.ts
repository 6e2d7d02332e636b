import { createHash } from 'node:crypto'
import { attachment } from '@/lib/api/content-disposition'
import { AppError, type FieldError, ValidationError } from '@/lib/api/errors'
import type { Principal } from '@/lib/auth/authenticate'
import { type CachedBuild, findBuild, getCachedBuild } from '@/lib/cad/build-cache'
import { type CadJob, runBuildJob, runParametersJob, runPartsJob } from '@/lib/cad/cad-job'
import type { EngineLimits, EngineLog, ParameterDefinition, ParameterValue, Values } from '@/lib/cad/engine'
import { exportMesh, MESH_FORMATS, type MeshFormat } from '@/lib/cad/mesh/export-mesh'
import { write3mf } from '@/lib/cad/mesh/write-3mf'
import { isDropped } from '@/lib/cad/worker-pool'
import { loadParameters, type ReadParameters } from '@/lib/cad/parameter-cache'
import { readExtraSettings } from '@/lib/configurators/configurators'
import { hostFonts } from '@/lib/fonts/host-fonts'
import type { LibraryRef } from '@/lib/libraries/libraries'
import type { ExtraSettings } from '@/lib/configurators/schemas'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { inBackground } from '@/lib/background'
import { partNames, type PrintReport, printReport } from '@/lib/manufacturing/print-report'
import type { Configurator, Prisma, RenderSession } from '@/lib/generated/prisma/client'
import { dropGuesses } from '@/lib/sessions/guesses'
import { type ParameterSet, ZParameter } from '@/lib/sessions/schemas'
import { mayStop, runSessionJob, type SessionRef } from '@/lib/sessions/session-scheduling'
import { updateSession } from '@/lib/sessions/session-updates'
import { findSessionByKeyOrPrincipal, type LoadedSession } from '@/lib/sessions/sessions'
import { modelRows } from '@/lib/configurators/model-memory'
import type { StoredFile } from '@/lib/storage/blob-store'

// A session's model: the files it is made of, the parameters the engine reads from them, the
// values the session sets, and the build of those values. Each request reads each once.

export type Quality = 'preview' | 'final'

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
  /** The fonts builds use (lib/fonts/host-fonts.ts); a snapshot's own files of them when this machine's differ. */
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

/** The configurator's files, the session's and the installed libraries (by name, as build keys list them): every request of a session reads them, remembered until one changes. */
async function readInputRows(configuratorId: string, sessionId: string | null): Promise<InputRow[]> {
  return (await inputRows.get(`${configuratorId}:${sessionId}`, () => queryInputRows(configuratorId, sessionId)))!
}

function queryInputRows(configuratorId: string, sessionId: string | null): Promise<InputRow[]> {
  return db.$queryRaw<InputRow[]>`
    SELECT 'configurator' AS kind, NULL AS id, "path" AS name, "blobHash" AS hash FROM "ConfiguratorFile"
      WHERE "configuratorId" = ${configuratorId}::uuid AND starts_with("path", ${CONFIGURATOR_ROOT})
    UNION ALL SELECT 'session', "id", "name", "blobHash" FROM "SessionFile" WHERE "sessionId" = ${sessionId}::uuid
    UNION ALL SELECT 'library', NULL, "name", "contentHash" FROM "Library"
    ORDER BY name`
}

export async function describeModelInputs(configurator: Configurator, sessionId: string | null): Promise<ModelInputs> {
  const rows = await readInputRows(configurator.id, sessionId)
  const ofKind = (kind: InputRow['kind']) => rows.filter((row) => row.kind === kind)
  const [configuratorFiles, sessionFiles] = [ofKind('configurator'), ofKind('session')]
  const libraries: LibraryRef[] = ofKind('library').map(({ name, hash }) => ({ name, contentHash: hash }))
  const byPath = new Map(configuratorFiles.map((file) => [file.name.slice(CONFIGURATOR_ROOT.length), file.hash]))
  const taken = configuratorNames(configuratorFiles.map((file) => file.name))
  // A customer's file never replaces the designer's: names the configurator uses stay its own.
  for (const file of sessionFiles) if (!taken.has(file.name)) byPath.set(file.name, file.hash)
  const files = [...byPath].map(([path, blobHash]) => ({ path, blobHash })).sort((a, b) => a.path.localeCompare(b.path))
  const settings = readExtraSettings(configurator)
  const buildSeconds = Math.min(settings.limits?.buildSeconds ?? env.BUILD_TIME_LIMIT_SECONDS, env.BUILD_TIME_LIMIT_SECONDS)
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
  return new Set(paths.filter((path) => path.startsWith(CONFIGURATOR_ROOT)).map((path) => path.slice(CONFIGURATOR_ROOT.length).split('/')[0]!))
}

export function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex')
}

function cadJob(inputs: ModelInputs, kind: CadJob['kind'], key: string, values: Values = {}, overrides: Values = {}): CadJob {
  const { cadType, mainFile, files, libraries, fontsHash, fonts, limits } = inputs
  return { kind, key, cadType, mainFile, files, libraries, fontsHash, fonts, limits, values, overrides }
}

const parameterReads = new Map<string, Promise<ReadParameters>>()

/**
 * The model's parameters, read by the engine once per distinct source and limits, and cached
 * like builds: also when the read failed, so a runaway model costs its time limit once.
 */
export async function readParameters(inputs: ModelInputs, session: SessionRef): Promise<ReadParameters> {
  // The limits belong to the key: a read stopped by a short limit may succeed under a longer one.
  // `format` changes when the definitions read from the engine do (2: vectors, 3: special variables).
  const key = `parameters:${hashOf({ source: inputs.sourceHash, limits: inputs.limits, format: 3 })}`
  const known = parameterReads.get(key)
  if (known) return { ...(await known), source: 'memory' }
  const job = cadJob(inputs, 'parameters', key)
  const result = (async () => (await loadParameters(key)) ?? runSessionJob(session, { job, ranSource: 'read', run: runParametersJob, load: loadParameters }))()
  result.catch(() => parameterReads.delete(key))
  parameterReads.set(key, result)
  return result
}

/** A value that fits its parameter, or why not: each problem with its path below the value. */
type CheckedValue = { value: ParameterValue } | { problems: { path: number[]; message: string }[] }

function rangeProblem({ min, max }: { min: number | null; max: number | null }, value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number'
  if (min !== null && value < min) return `must be at least ${min}`
  if (max !== null && value > max) return `must be at most ${max}`
  return null
}

function checkValue(definition: ParameterDefinition, value: unknown, sessionFileIds: ReadonlySet<string>): CheckedValue {
  const refuse = (message: string): CheckedValue => ({ problems: [{ path: [], message }] })
  switch (definition.kind) {
    case 'number': {
      const problem = rangeProblem(definition, value)
      return problem === null && typeof value === 'number' ? { value } : refuse(problem ?? 'must be a number')
    }
    case 'vector': {
      const { length } = definition.default
      if (!Array.isArray(value) || value.length !== length) return refuse(`must be a list of ${length} numbers`)
      const numbers = value.filter((element): element is number => typeof element === 'number')
      const problems = value.flatMap((element, index) => {
        const problem = rangeProblem(definition, element)
        return problem ? [{ path: [index], message: `element ${index + 1} ${problem}` }] : []
      })
      return problems.length === 0 ? { value: numbers } : { problems }
    }
    case 'choice': {
      const option = definition.options.find((candidate) => candidate.value === value)
      return option ? { value: option.value } : refuse(`must be one of ${definition.options.map((candidate) => JSON.stringify(candidate.value)).join(', ')}`)
    }
    case 'bool':
      return typeof value === 'boolean' ? { value } : refuse('must be true or false')
    case 'string':
      if (typeof value !== 'string') return refuse('must be a string')
      return definition.maxLength !== null && value.length > definition.maxLength ? refuse(`must be at most ${definition.maxLength} characters`) : { value }
    case 'file':
      return typeof value === 'string' && (value === '' || sessionFileIds.has(value)) ? { value } : refuse('must be the id of a file of this session, or ""')
  }
}

/** The values to store from a set-parameters body: 422 naming every bad key, and nothing stored. */
export function validateValues(definitions: ParameterDefinition[], body: Record<string, { value: unknown }>, sessionFileIds: ReadonlySet<string>): Values {
  const byKey = new Map(definitions.map((definition) => [definition.key, definition]))
  const problems: FieldError[] = []
  const values: Values = {}
  for (const [key, { value }] of Object.entries(body)) {
    const definition = byKey.get(key)
    if (!definition) {
      problems.push({ path: [key], message: 'is not a parameter of this model' })
      continue
    }
    const checked = checkValue(definition, value, sessionFileIds)
    if ('value' in checked) values[key] = checked.value
    else problems.push(...checked.problems.map(({ path, message }) => ({ path: [key, 'value', ...path], message })))
  }
  // The sentence names each parameter by its key alone, as it always has.
  if (problems.length > 0) throw new ValidationError(problems, problems.map(({ path, message }) => `${path[0]}: ${message}`).join('; '))
  return values
}

/** Defaults overlaid with the stored values that still fit the (possibly changed) model. */
function effectiveValues({ definitions, inputs }: BuildSource, stored: Readonly<Record<string, unknown>>): Values {
  const sessionFileIds = new Set(inputs.sessionFileNames.keys())
  return Object.fromEntries(
    definitions.map((definition) => {
      const checked = Object.hasOwn(stored, definition.key) ? checkValue(definition, stored[definition.key], sessionFileIds) : null
      return [definition.key, checked && 'value' in checked ? checked.value : definition.default]
    }),
  )
}

/** The values a session row stores (only those set); anything but an object stores none. */
export function storedValuesOf(json: Prisma.JsonValue): Prisma.JsonObject {
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? json : {}
}

/** `wall_thickness` and `wallThickness` both read "Wall thickness". */
function displayName(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_+/g, ' ').trim().toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export function toParameterSet(definitions: ParameterDefinition[], values: Values): ParameterSet {
  return Object.fromEntries(definitions.map((definition) => [definition.key, toParameter(definition, values[definition.key])]))
}

/** The parameter as clients see it; parsed, since the kinds' fields and values are checked apart. */
function toParameter({ key, kind, ...fields }: ParameterDefinition, value: ParameterValue | undefined) {
  return ZParameter.parse({ name: displayName(key), type: kind === 'number' ? 'float' : kind, ...fields, value: value ?? fields.default })
}

/** What a session's builds start from: whose they are, the model's inputs, and the parameters read from them (the engine's ModelSource is the files alone). */
export interface BuildSource {
  /** Whose builds they are: a session, or the configurator itself when it is prepared. */
  session: SessionRef
  inputs: ModelInputs
  definitions: ParameterDefinition[]
}

export async function readBuildSource(session: LoadedSession): Promise<BuildSource> {
  const inputs = await describeModelInputs(session.configurator, session.id)
  return { session, inputs, definitions: await customerParameters(inputs, session) }
}

/** The parameters customers set: the model's, less those the quality settings set (`$fn`), which are the configurator's. */
async function customerParameters(inputs: ModelInputs, session: SessionRef): Promise<ParameterDefinition[]> {
  const { definitions } = await readParameters(inputs, session)
  const { preview, final } = inputs.settings.quality ?? {}
  const overridden = new Set([...Object.keys(preview ?? {}), ...Object.keys(final ?? {})])
  return definitions.filter((definition) => !overridden.has(definition.key))
}

/** The configurator's model as a new session sees it, its builds the configurator's own. */
export async function readConfiguratorSource(configurator: Configurator): Promise<BuildSource> {
  const session = { id: configurator.id, identityId: null, configuratorId: configurator.id, applicationId: null }
  const inputs = await describeModelInputs(configurator, null)
  return { session, inputs, definitions: await customerParameters(inputs, session) }
}

/** The preview model of `values` (stored values, or changes over them) over the defaults, built or from the cache. */
export function buildValues(source: BuildSource, values: Readonly<Record<string, unknown>>, signal?: AbortSignal): Promise<CachedBuild> {
  return buildModel(source, effectiveValues(source, values), 'preview', signal)
}

/**
 * The model of these values at this quality: from the cache when any session built the same
 * inputs before, otherwise built once, here or on the build queue. Aborting stops waiting for the
 * build, and stops the build when nobody else waits for it.
 */
export async function buildModel(source: BuildSource, values: Values, quality: Quality, signal?: AbortSignal): Promise<CachedBuild> {
  const job = buildJob(source, values, quality)
  const { session } = source
  const build = () => getCachedBuild(job.key, (buildSignal) => runSessionJob(session, { job, ranSource: 'built', run: runBuildJob, load: findBuild }, buildSignal), mayStop(session) ? signal : undefined)
  // Joined a guess of the same values that no worker took: this one is no guess.
  return build().catch((error: unknown) => (isDropped(error) && !session.speculative ? build() : Promise.reject(error)))
}

function buildJob({ inputs, definitions }: BuildSource, values: Values, quality: Quality): CadJob {
  const overrides = inputs.settings.quality?.[quality] ?? {}
  // File parameters hold a session file id; the model sees the file under its name.
  const engineValues = Object.fromEntries(
    definitions
      .map((definition): [string, ParameterValue] => {
        const value = values[definition.key] ?? definition.default
        return [definition.key, definition.kind === 'file' ? (inputs.sessionFileNames.get(String(value)) ?? '') : value]
      })
      .sort(([a], [b]) => a.localeCompare(b)),
  )
  // The limits belong to the key: a build stopped by a short limit may succeed under a longer one.
  const key = hashOf({ source: inputs.sourceHash, values: engineValues, overrides, limits: inputs.limits })
  return cadJob(inputs, 'build', key, engineValues, overrides)
}

/** Where a build's closed parts are cached; `2`: the format of the measures stored with them. */
function partsKey(buildKey: string): string {
  return `parts:2:${buildKey}`
}

/**
 * The model of these values at this quality with its parts closed and measured for
 * manufacturing (lib/cad/cad-job.ts runPartsJob); the build itself when it failed.
 */
async function buildPrintModel(source: BuildSource, values: Values, quality: Quality): Promise<CachedBuild> {
  const built = await buildModel(source, values, quality)
  if (!built.mesh) return built
  const job: CadJob = { ...buildJob(source, values, quality), kind: 'parts', key: partsKey(built.key), buildKey: built.key }
  return getCachedBuild(job.key, (signal) => runSessionJob(source.session, { job, ranSource: 'built', run: runPartsJob, load: findBuild }, signal))
}

/** Builds what the print report of these values over the defaults needs (getObjectInfo): the closed parts of both qualities. */
export async function preparePrint(source: BuildSource, values: Readonly<Record<string, unknown>>): Promise<void> {
  for (const quality of ['preview', 'final'] as const) await buildPrintModel(source, effectiveValues(source, values), quality)
}

/** The model of the session's stored state. */
export async function buildStoredModel(session: LoadedSession, quality: Quality) {
  const source = await readBuildSource(session)
  const values = effectiveValues(source, storedValuesOf(session.values))
  return { source, definitions: source.definitions, values, build: await buildModel(source, values, quality) }
}

/**
 * Bounding box and volume of the session's current model, and its printability and price report;
 * 409 when it did not build.
 */
export async function getObjectInfo(session: LoadedSession) {
  const { source, values, build } = await buildStoredModel(session, 'preview')
  const { boundingBox, volume } = builtOrConflict(build, sessionLogPath(session.id)).objectInfo
  return { boundingBox, volume, print: await printReportOf(source, values) }
}

/**
 * The report of the model that is manufactured: the final quality's. Until that is built (in the
 * background once the customer pauses, one at a time per session, the newest values next), the
 * preview's, as an estimate.
 */
async function printReportOf(source: BuildSource, values: Values): Promise<PrintReport> {
  const previewKey = buildJob(source, values, 'preview').key
  const finalKey = buildJob(source, values, 'final').key
  const final = finalKey === previewKey ? null : await findBuild(partsKey(finalKey))
  if (final) return reportOf(source, final, 'final')
  // Behind every model a customer waits to see, never holding up the customer's next one.
  const printing = { ...source, session: { ...source.session, print: true } }
  if (finalKey !== previewKey) inBackground(source.session.id, finalKey, () => buildPrintModel(printing, values, 'final'))
  return reportOf(source, await buildPrintModel(printing, values, 'preview'), finalKey === previewKey ? 'final' : 'preview')
}

function reportOf(source: BuildSource, build: CachedBuild, quality: PrintReport['quality']): PrintReport {
  const { mesh, print } = printedOrConflict(build)
  return printReport(print, mesh.parts.map((part) => part.color), source.inputs.settings.manufacturing, quality, quality === 'preview')
}

/** The report of the final quality of these values, built now when it is not cached. */
export async function finalPrintReport(source: BuildSource, values: Values): Promise<PrintReport> {
  return reportOf(source, await buildPrintModel(source, values, 'final'), 'final')
}

export function sessionLogPath(sessionId: string): string {
  return `/api/configsessions/${sessionId}/log`
}

/** The model that was built; 409 naming where the log says why it was not. */
export function builtOrConflict(build: CachedBuild, logPath: string) {
  if (!build.mesh || !build.objectInfo) throw new AppError('conflict', `The model did not build; GET ${logPath} says why`)
  return { mesh: build.mesh, objectInfo: build.objectInfo }
}

export async function getParameters(session: LoadedSession): Promise<ParameterSet> {
  const source = await readBuildSource(session)
  return toParameterSet(source.definitions, effectiveValues(source, storedValuesOf(session.values)))
}

/**
 * The log of the last configuration: the CAD run's output; in `error`, first what was said about
 * the values when they were stored (a preset's ignored or clamped ones), then what each
 * renderer's last image could not draw as asked, each line naming its renderer.
 */
export function composeSessionLog(session: Pick<LoadedSession, 'valueWarnings'>, build: EngineLog, renderers: Pick<RenderSession, 'id' | 'renderLog'>[]): EngineLog {
  const rendererLines = renderers.flatMap(({ id, renderLog }) => (renderLog ? renderLog.split('\n').map((line) => `renderer ${id}: ${line}`) : []))
  return { message: build.message, error: [session.valueWarnings, build.error, ...rendererLines].filter(Boolean).join('\n') }
}

export async function getSessionLog(session: LoadedSession) {
  const [{ build }, renderers] = await Promise.all([
    buildStoredModel(session, 'preview'),
    db.renderSession.findMany({ where: { sessionId: session.id }, orderBy: { createdAt: 'asc' } }),
  ])
  return { ...composeSessionLog(session, build.log, renderers), timestamp: session.configuredAt.getTime() }
}

/**
 * Validates and stores new values, and starts building their model; answers the full parameter
 * set of the stored state, which holds them (lib/sessions/session-updates.ts).
 */
export async function setParameters(session: LoadedSession, body: Record<string, { value: unknown }>): Promise<ParameterSet> {
  const source = await readBuildSource(session)
  return storeValues(session, source, validateValues(source.definitions, body, new Set(source.inputs.sessionFileNames.keys())))
}

/** Stores valid values over the session's and starts building them; answers the stored state. `warnings`: what the session's log says about them. */
export async function storeValues(session: LoadedSession, source: BuildSource, changes: Values, warnings?: string): Promise<ParameterSet> {
  // The customer set values: guesses of what it would set are moot.
  dropGuesses(source.session.id)
  const stored = await updateSession(source.session.id, { current: storedValuesOf(session.values), changes, warnings, build: (values, signal) => buildValues(source, values, signal) })
  return toParameterSet(source.definitions, effectiveValues(source, storedValuesOf(stored)))
}

/** The model of the session's stored state as a file of `type`; 409 when it did not build. */
export async function storedModelFile(session: LoadedSession, quality: Quality, type: MeshFormat) {
  const { source, values, build } = await buildStoredModel(session, quality)
  return modelFileOf({ source, values, quality, build, type, title: session.configurator.name, logPath: sessionLogPath(session.id) })
}

export interface ModelFileOptions {
  source: BuildSource
  values: Values
  quality: Quality
  /** The build of these values at this quality. */
  build: CachedBuild
  type: MeshFormat
  /** The 3MF's title. */
  title: string
  logPath: string
}

/** A built model as a file of `type`; 409 when it did not build. */
export async function modelFileOf({ source, values, quality, build, type, title, logPath }: ModelFileOptions) {
  const { mesh } = builtOrConflict(build, logPath)
  if (type !== '3mf') return { build, ...exportMesh(mesh, type) }
  return { build, bytes: await write3mfOf(source, values, quality, title), contentType: MESH_FORMATS['3mf'].contentType }
}

/** The 3MF of a built model: its parts closed, named by the designer's labels. */
export async function write3mfOf(source: BuildSource, values: Values, quality: Quality, title: string): Promise<Uint8Array> {
  const { mesh } = printedOrConflict(await buildPrintModel(source, values, quality))
  return write3mf(mesh, partNames(mesh.parts.map((part) => part.color), source.inputs.settings.manufacturing), title)
}

/** 409 when the parts could not be closed at all (the run hit its time or memory limit). */
function printedOrConflict(build: CachedBuild) {
  const print = build.objectInfo?.print
  if (!build.mesh || !print) throw new AppError('conflict', `The model's parts could not be made ready to print: ${build.log.error.split('\n').at(-1)}`)
  return { mesh: build.mesh, print }
}

export interface ModelResponseOptions {
  sessionId: string
  principal: Principal | null
  query: { type: MeshFormat; filename?: string; key?: string }
  quality: Quality
}

/** The model of the session's current state as a file; 409 when it did not build. */
export async function modelResponse({ sessionId, principal, query, quality }: ModelResponseOptions): Promise<Response> {
  const session = await findSessionByKeyOrPrincipal(sessionId, principal, query.key, 'model')
  // secureModel: only the shop's back end (server token) or the owner fetches the final model.
  if (quality === 'final' && session.application?.secureModel && (principal === null || principal.kind === 'anonymous')) {
    throw new AppError('forbidden', "This application's finalized model needs the shop's server token")
  }
  return modelDownload(await storedModelFile(session, quality, query.type), query)
}

/** A model file as a private download, saying where its build came from. */
export function modelDownload({ build, bytes, contentType }: Awaited<ReturnType<typeof modelFileOf>>, query: ModelResponseOptions['query']): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      'content-type': contentType,
      'content-length': String(bytes.byteLength),
      'content-disposition': attachment(query.filename ?? `model.${query.type}`),
      'cache-control': 'private, no-store',
      'x-build-cache': build.source,
    },
  })
}
