import { AppError } from '@/lib/api/errors'
import { type CachedBuild, exportKey, findBuild } from '@/lib/builds/build-cache'
import { getBuild, readParameters } from '@/lib/queue/scheduled-builds'
import { type CadJob, isTimedOut, REFUSALS_BUDGET } from '@/lib/builds/cad-job'
import type { SearchResult } from '@/lib/cad/engine'
import type { BuildOwner } from '@/lib/queue/scheduling'
import type { EngineLog, ParameterDefinition, ParameterValue, Values } from '@/lib/cad/engine'
import { cadSystem } from '@/lib/cad/engines'
import { write3mf } from '@/lib/cad/mesh/write-3mf'
import { inBackground } from '@/lib/background'
import { env } from '@/lib/env'
import type { Configurator } from '@/lib/generated/prisma/client'
import { draftOf } from '@/lib/releases/release-content'
import {
  DEFAULT_BUILD_VOLUME_MM,
  type PartNaming,
  partNames,
  printReport,
  slicedPrice,
} from '@/lib/manufacturing/print-report'
import type { Mesh } from '@/lib/cad/mesh/mesh'
import type { PrintReport, SliceReport } from '@/lib/manufacturing/schemas'
import { SEARCHING_REASON } from '@/lib/cad/refused-values-schema'
import {
  DEFAULT_PROFILE,
  type ProfileChoice,
  ProfileError,
  type SlicerConfig,
  slicerConfig,
} from '@/lib/slicing/profiles'
import { isSlicerInstalled } from '@/lib/slicing/slicer'
import type { SliceFigures } from '@/lib/slicing/prusa-slicer'
import { hashOf } from '@/lib/hash-of'
import { describeModelInputs, type ModelInputs } from '@/lib/sessions/model-inputs'
import { effectiveValues } from '@/lib/sessions/parameter-values'
import type { LoadedSession } from '@/lib/sessions/sessions'

// A session's model builds: the parameters read from its inputs, the model of a set of values
// at a quality, and its parts closed for manufacturing, each once per distinct input, from the
// cache, in this process or on the build queue.

export type Quality = 'preview' | 'final'

function cadJob(
  inputs: ModelInputs,
  kind: CadJob['kind'],
  key: string,
  values: Values = {},
  overrides: Values = {},
  quality?: Quality,
): CadJob {
  const { cadType, cadVersion, mainFile, files, libraries, fontsHash, fonts, limits } = inputs
  return {
    kind,
    key,
    cadType,
    cadVersion,
    mainFile,
    files,
    libraries,
    fontsHash,
    fonts,
    limits,
    values,
    overrides,
    quality,
  }
}

/** The model's parameters, read once per distinct source and limits (lib/queue/scheduled-builds.ts). */
export function readModelParameters(inputs: ModelInputs, owner: BuildOwner) {
  // The limits belong to the key: a read stopped by a short limit may succeed under a longer one.
  // `format` changes when the definitions read from the engine do (2: vectors, 3: special variables).
  const key = `parameters:${hashOf({ source: inputs.sourceHash, limits: inputs.limits, format: 3 })}`
  return readParameters(owner, cadJob(inputs, 'parameters', key))
}

/** What a session's builds start from: whose they are, the model's inputs, and the parameters read from them (the engine's ModelSource is the files alone). */
export interface BuildSource {
  /** Whose builds they are: a session, or the configurator itself when it is prepared. */
  session: BuildOwner
  inputs: ModelInputs
  definitions: ParameterDefinition[]
  /** The product's name: the 3MF's title, and the name of the part of a model the designer did not colour. */
  title: string
  /**
   * The log of a parameter read the time limit stopped. Reading the parameters evaluates the model
   * at its defaults, and with none read the defaults are all a build can have: it would be stopped
   * too, so none runs, and a request never waits for two time limits.
   */
  stoppedRead?: EngineLog
}

export async function readBuildSource(session: LoadedSession): Promise<BuildSource> {
  const inputs = await describeModelInputs(session.configurator, session.id)
  return { session, inputs, ...(await customerParameters(inputs, session)), title: session.configurator.name }
}

/** The engine variables a quality sets: its CAD system's defaults, then the configurator's settings. */
function qualityOverrides(inputs: ModelInputs, quality: Quality): Record<string, ParameterValue> {
  return { ...cadSystem(inputs.cadType).defaultQuality[quality], ...inputs.settings.quality?.[quality] }
}

/** The parameters customers set: the model's, less those the quality settings set (`$fn`), which are the configurator's. */
async function customerParameters(
  inputs: ModelInputs,
  owner: BuildOwner,
): Promise<Pick<BuildSource, 'definitions' | 'stoppedRead'>> {
  const { definitions, log } = await readModelParameters(inputs, owner)
  const overridden = new Set(
    (['preview', 'final'] as const).flatMap((quality) => Object.keys(qualityOverrides(inputs, quality))),
  )
  return {
    definitions: definitions.filter((definition) => !overridden.has(definition.key)),
    ...(isTimedOut(log) && { stoppedRead: log }),
  }
}

/** The configurator's draft (what new sessions get until it is first published), its builds the configurator's own. */
export async function readConfiguratorSource(configurator: Configurator): Promise<BuildSource> {
  const session = { id: configurator.id, identityId: null, configuratorId: configurator.id, applicationId: null }
  const inputs = await describeModelInputs(draftOf(configurator), null)
  return { session, inputs, ...(await customerParameters(inputs, session)), title: configurator.name }
}

/** The preview model of `values` (stored values, or changes over them) over the defaults, built or from the cache. */
export function buildValues(
  source: BuildSource,
  values: Readonly<Record<string, unknown>>,
  signal?: AbortSignal,
): Promise<CachedBuild> {
  return buildModel(source, effectiveValues(source, values), 'preview', signal)
}

/** The model of these values at this quality, from the cache or built (lib/queue/scheduled-builds.ts). */
export function buildModel(source: BuildSource, values: Values, quality: Quality, signal?: AbortSignal) {
  const job = buildJob(source, values, quality)
  if (source.stoppedRead)
    return Promise.resolve({
      key: job.key,
      source: 'memory' as const,
      mesh: null,
      log: source.stoppedRead,
      objectInfo: null,
    })
  return getBuild(source.session, job, signal)
}

function buildJob({ inputs, definitions }: BuildSource, values: Values, quality: Quality): CadJob {
  const overrides = qualityOverrides(inputs, quality)
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
  // `format` changes when what a build answers does (2: a run that logged an ERROR line built nothing;
  // faces OpenSCAD colours for a cut are the uncoloured part's; 3: parts carry names).
  const key = hashOf({ source: inputs.sourceHash, values: engineValues, overrides, limits: inputs.limits, format: 3 })
  return cadJob(inputs, 'build', key, engineValues, overrides, quality)
}

/** Where a build's closed parts are cached; `3`: the format of the measures stored with them (3: bodies). */
function partsKey(buildKey: string): string {
  return `parts:3:${buildKey}`
}

/**
 * The model of these values at this quality with its parts closed and measured for
 * manufacturing (lib/builds/cad-job.ts runPartsJob); the build itself when it failed.
 */
async function buildPrintModel(source: BuildSource, values: Values, quality: Quality): Promise<CachedBuild> {
  const built = await buildModel(source, values, quality)
  if (!built.mesh) return built
  const job: CadJob = {
    ...buildJob(source, values, quality),
    kind: 'parts',
    key: partsKey(built.key),
    buildKey: built.key,
  }
  return getBuild(source.session, job)
}

/** Builds what the print report of these values over the defaults needs (getObjectInfo): the closed parts of both qualities. */
export async function preparePrint(source: BuildSource, values: Readonly<Record<string, unknown>>): Promise<void> {
  for (const quality of ['preview', 'final'] as const)
    await buildPrintModel(source, effectiveValues(source, values), quality)
}

/** The model of the session's stored state. */
export async function buildStoredModel(session: LoadedSession, quality: Quality) {
  const source = await readBuildSource(session)
  const values = effectiveValues(source, session.values)
  return { source, definitions: source.definitions, values, build: await buildModel(source, values, quality) }
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
  // Never holding up the customer's next model; the final quality behind every model a customer waits to see, its slice after it.
  if (finalKey !== previewKey)
    inBackground(source.session.id, finalKey, async () => {
      if ((await buildPrintModel(printing(source, true), values, 'final')).mesh) await slicedModel(source, values)
    })
  return reportOf(
    source,
    await buildPrintModel(printing(source, false), values, 'preview'),
    finalKey === previewKey ? 'final' : 'preview',
  )
}

/** The owner's print figures: in a lane of their own, the final quality's in the background. */
function printing(source: BuildSource, background: boolean): BuildSource {
  return { ...source, session: { ...source.session, print: true, background } }
}

/**
 * What the manufactured model is: its print report (printReportOf) and, once the final quality
 * exists, PrusaSlicer's slice of it, started in the background when it is not cached.
 */
export async function manufacturingOf(source: BuildSource, values: Values) {
  const print = await printReportOf(source, values)
  return { print, slice: await sliceReportOf(source, values, print, { wait: false }) }
}

/** The configurator's slicer profile (its manufacturing settings), else the default. */
function slicerProfile(source: BuildSource): ProfileChoice {
  return source.inputs.settings.manufacturing?.slicer ?? DEFAULT_PROFILE
}

/** The slice of the final quality's parts with a flat config, as a job. */
function sliceJob(source: BuildSource, values: Values, config: SlicerConfig): CadJob {
  const job = buildJob(source, values, 'final')
  // `1`: the format of the 3MF sliced and the figures stored.
  const key = exportKey(`slice-${hashOf({ config: config.hash, format: 1 })}`, partsKey(job.key))
  // It slices the cached parts: none of the model's files, libraries or fonts are read for it.
  const noFiles = { files: [], libraries: [], fonts: [] }
  return { ...job, ...noFiles, kind: 'slice', key, buildKey: partsKey(job.key), sliceConfig: config.text }
}

/** Slices the final quality's parts in the background, once per key however many ask; nothing when the profile is not on this server. */
async function slicedModel(source: BuildSource, values: Values): Promise<void> {
  const config = configOf(source)
  if (!(config instanceof ProfileError))
    await getBuild(printing(source, true).session, sliceJob(source, values, config))
}

/** The flat config of the configurator's profile and build volume, or why this server cannot slice with it (a release's presets its bundles no longer have). */
function configOf(source: BuildSource): SlicerConfig | ProfileError {
  try {
    return slicerConfig(slicerProfile(source), source.inputs.settings.manufacturing?.buildVolumeMm)
  } catch (error) {
    if (error instanceof ProfileError) return error
    throw error
  }
}

/**
 * The slice report of the values' final quality: from the cache, else started in the background
 * (`slicing`), or, for one who waits for it (a snapshot's quote), sliced now as a customer's work,
 * within the slice's time limit.
 */
async function sliceReportOf(
  source: BuildSource,
  values: Values,
  print: PrintReport,
  { wait }: { wait: boolean },
): Promise<SliceReport> {
  const profile = slicerProfile(source)
  const config = configOf(source)
  const extruders = config instanceof ProfileError ? 1 : config.extruders
  const report: SliceReport = {
    state: 'waiting',
    profile: 'config' in profile ? { name: profile.name } : profile,
    extruders,
    parts: print.parts.length,
    oneFilament: extruders === 1 && print.parts.length > 1,
    printTimeSeconds: null,
    materials: [],
    supports: null,
    layers: null,
    price: null,
    error: null,
  }
  const unavailable = (error: string): SliceReport => ({ ...report, state: 'unavailable', error })
  if (print.process === 'cut') return unavailable('a 2D model is cut, not printed')
  if (!isSlicerInstalled()) return unavailable(`this server has no PrusaSlicer (${env.PRUSA_SLICER})`)
  if (config instanceof ProfileError) return unavailable(config.message)
  if (print.quality !== 'final') return report
  const job = sliceJob(source, values, config)
  const sliced = (await findBuild(job.key)) ?? (wait ? await getBuild(printing(source, false).session, job) : null)
  if (!sliced) {
    inBackground(source.session.id, job.key, () => slicedModel(source, values))
    return { ...report, state: 'slicing' }
  }
  if (!sliced.file) return { ...report, state: 'failed', error: sliced.log.error.replace(/^ERROR: /, '') }
  const figures = JSON.parse(new TextDecoder().decode(sliced.file)) as SliceFigures
  const price = slicedPrice(source.inputs.settings.manufacturing, print, figures, extruders)
  return { ...report, state: 'done', ...figures, price }
}

/** The volume the model must fit: the slicer's printer's bed, as the designer may have set it; a common printer's when this server cannot resolve the profile. */
function buildVolumeOf(source: BuildSource): [number, number, number] {
  const config = configOf(source)
  return config instanceof ProfileError
    ? (source.inputs.settings.manufacturing?.buildVolumeMm ?? DEFAULT_BUILD_VOLUME_MM)
    : config.buildVolumeMm
}

function reportOf(source: BuildSource, build: CachedBuild, quality: PrintReport['quality']): PrintReport {
  const { mesh, print } = printedOrConflict(build)
  return printReport(print, partNaming(source, mesh), buildVolumeOf(source), quality, quality === 'preview')
}

/** A parameter's search for the values the model refuses, the others held: cached by the model, the parameter and the other values. */
function refusalsJob(source: BuildSource, values: Values, parameter: ParameterDefinition): CadJob {
  const job = buildJob(source, values, 'preview')
  const { [parameter.key]: _searched, ...others } = job.values
  const { sourceHash, limits } = source.inputs
  // `1`: the format of the map stored.
  const key = `refusals:${hashOf({ source: sourceHash, others, parameter, overrides: job.overrides, limits, budget: REFUSALS_BUDGET, format: 1 })}`
  return { ...job, kind: 'refusals', key, parameter }
}

const SEARCHING = { searched: false as const, reason: SEARCHING_REASON }

/** When each session last asked for its map here: a search nobody has asked about for ABANDONED_MS stops (its page closed). */
const askedAt = new Map<string, number>()
const ABANDONED_MS = 5000

/**
 * Where the model refuses values at these values (issue 49): each parameter's map from the cache,
 * the missing ones searched one after another, behind every customer's build. In the background
 * (stopped when the session's values change again), or with `wait`, before answering.
 */
export async function refusedValuesOf(source: BuildSource, values: Values, { wait = false } = {}) {
  const jobs = source.definitions.map((definition) => refusalsJob(source, values, definition))
  const found = await Promise.all(jobs.map((job) => findBuild(job.key)))
  const missing = jobs.filter((_, index) => !found[index]?.file)
  const sessionId = source.session.id
  if (wait) for (const job of missing) found[jobs.indexOf(job)] = await getBuild(searching(source), job)
  else if (missing.length > 0) {
    askedAt.set(sessionId, Date.now())
    // Named by every map of these values, not by those missing: a page asking again as each map is
    // found must not stop the search of the next one.
    inBackground(`refusals:${sessionId}`, hashOf(jobs.map((job) => job.key)), async (signal) => {
      for (const job of missing) {
        if (signal.aborted || Date.now() - askedAt.get(sessionId)! > ABANDONED_MS) break
        await getBuild(searching(source), job, signal)
      }
      askedAt.delete(sessionId)
    })
  }
  const maps = found.map((build) => build?.file && (JSON.parse(new TextDecoder().decode(build.file)) as SearchResult))
  return {
    complete: maps.every((map) => map?.complete),
    values: Object.fromEntries(source.definitions.map(({ key, default: fallback }) => [key, values[key] ?? fallback])),
    parameters: Object.fromEntries(jobs.map((job, index) => [job.parameter!.key, maps[index]?.refusals ?? SEARCHING])),
  }
}

/** The session's background searches: a lane of their own beside its builds, counted as its print figures are. */
function searching(source: BuildSource): BuildOwner {
  return { ...source.session, print: true, background: true }
}

/** The report of the final quality of these values, built now when it is not cached. */
export async function finalPrintReport(source: BuildSource, values: Values): Promise<PrintReport> {
  return reportOf(source, await buildPrintModel(source, values, 'final'), 'final')
}

/** The slice of the final quality of these values (its `print` report), sliced now when it is not cached. */
export function finalSliceReport(source: BuildSource, values: Values, print: PrintReport): Promise<SliceReport> {
  return sliceReportOf(source, values, print, { wait: true })
}

/** The model that was built; 409 naming where the log says why it was not. */
export function builtOrConflict(build: CachedBuild, logPath: string) {
  if (!build.mesh || !build.objectInfo)
    throw new AppError('conflict', `The model did not build; GET ${logPath} says why`)
  return { mesh: build.mesh, objectInfo: build.objectInfo }
}

/** A built model as a file of one of its CAD system's export types (STEP); 409 when it could not be written so. */
export async function exportedModel(
  source: BuildSource,
  values: Values,
  quality: Quality,
  { build, type }: { build: CachedBuild; type: string },
): Promise<{ bytes: Uint8Array; contentType: string }> {
  const contentType = cadSystem(source.inputs.cadType).exportTypes[type]!
  const job: CadJob = {
    ...buildJob(source, values, quality),
    kind: 'export',
    key: exportKey(type, build.key),
    exportType: type,
  }
  const exported = await getBuild(source.session, job)
  if (!exported.file)
    throw new AppError(
      'conflict',
      `The model could not be written as ${type}: ${exported.log.error.split('\n').at(-1) ?? 'no reason given'}`,
    )
  return { bytes: exported.file, contentType }
}

/** The 3MF of a built model: its parts closed, named by the designer's labels. */
export async function write3mfOf(source: BuildSource, values: Values, quality: Quality): Promise<Uint8Array> {
  const { mesh } = printedOrConflict(await buildPrintModel(source, values, quality))
  return write3mf(mesh, partNames(partNaming(source, mesh)), source.title)
}

function partNaming(source: BuildSource, mesh: Mesh): PartNaming {
  return {
    colors: mesh.parts.map((part) => part.color),
    names: mesh.parts.map((part) => part.name),
    settings: source.inputs.settings.manufacturing,
    title: source.title,
  }
}

/** 409 when the parts could not be closed at all (the run hit its time or memory limit). */
function printedOrConflict(build: CachedBuild) {
  const print = build.objectInfo?.print
  if (!build.mesh || !print)
    throw new AppError(
      'conflict',
      `The model's parts could not be made ready to print: ${build.log.error.split('\n').at(-1)}`,
    )
  return { mesh: build.mesh, print }
}
