import { buildStored, type CachedBuild, findBuild, remember, storeBuild } from '@/lib/builds/build-cache'
import type {
  CadEngine,
  EngineLimits,
  EngineLog,
  ModelSource,
  ParameterDefinition,
  ParameterValue,
} from '@/lib/cad/engine'
import { getEngine } from '@/lib/cad/engine-versions'
import { type ReadParameters, storeParameters } from '@/lib/builds/parameter-cache'
import { isDropped, type Scheduling } from '@/lib/cad/worker-pool'
import { hostFonts } from '@/lib/cad/fonts/host-fonts'
import { isFlat, measureFlatParts } from '@/lib/cad/mesh/flat-outline'
import { type LibraryRef, readLibraryFiles } from '@/lib/builds/library-files'
import { logger } from '@/lib/log'
import { metrics } from '@/lib/metrics'
import { recentReads } from '@/lib/recent-reads'
import { blobStore, type StoredFile } from '@/lib/storage/blob-store'
import { write3mf } from '@/lib/cad/mesh/write-3mf'
import { extrudersOf } from '@/lib/slicing/profiles'
import { sliceScheduled } from '@/lib/slicing/slicer'

/**
 * One run of a CAD engine, described by content hashes only, so that any process sharing the
 * database and the storage can run it: in the web process that asked, or on the build queue.
 * Its result goes to the cache under `key`.
 */
export interface CadJob {
  kind: 'build' | 'parameters' | 'parts' | 'export' | 'slice' | 'refusals'
  /** The cache key: a hash of everything below. */
  key: string
  cadType: string
  /** Which of the type's engines builds it (lib/cad/engines.ts). */
  cadVersion: string
  mainFile: string
  files: StoredFile[]
  /** The installed libraries, each by version. */
  libraries: LibraryRef[]
  /** The fonts of the machine that asked (lib/cad/fonts/host-fonts.ts): the one that builds must have the same. */
  fontsHash: string
  /** A snapshot's fonts, when they are not this machine's any more: built with these instead. */
  fonts?: StoredFile[]
  limits: EngineLimits
  /** Of a build: the parameter values and the quality's engine variables. */
  values: Record<string, ParameterValue>
  overrides: Record<string, ParameterValue>
  /** Of a `parts` job: the key of the build whose parts it closes; of a `slice` job, of the parts it slices. Cached before the job starts. */
  buildKey?: string
  /** Of a `slice` job: the flat PrusaSlicer config (lib/slicing/profiles.ts). */
  sliceConfig?: string
  /** Of a `refusals` job: the parameter searched for the values the model refuses, the others at `values`. */
  parameter?: ParameterDefinition
  /** Of an `export` job: the file type its engine writes (its CAD system's exportTypes). */
  exportType?: string
  /** Of a build: the quality whose overrides it has, for its metrics and log line (the overrides are in the key). */
  quality?: 'preview' | 'final'
}

// A model's files, by content hash, as its builds read them: every slider move builds the same files.
const readModelFile = recentReads(
  64,
  (blobHash: string) => blobHash,
  async (blobHash) => new Uint8Array(await blobStore.readBuffer(blobHash)),
)

/** Everything the engine needs of the job but its values. */
export async function readSource(job: CadJob): Promise<ModelSource> {
  // The key holds the asking machine's fonts: a model built with others would be cached under it wrongly.
  if (!job.fonts && job.fontsHash !== hostFonts().hash) {
    throw new Error(
      'this build worker has other fonts than the web instance that asked (FONT_DIRS); every machine needs the same fonts',
    )
  }
  const read = (stored: StoredFile[]) =>
    Promise.all(stored.map(async ({ path, blobHash }) => ({ path, data: await readModelFile(blobHash) })))
  const [files, libraries, fonts] = await Promise.all([
    read(job.files),
    readLibraryFiles(job.libraries),
    job.fonts && read(job.fonts),
  ])
  return { files, libraries, fonts, mainFile: job.mainFile }
}

const TIME_LIMIT = /^ERROR: the build was stopped after (its|the) time limit/m

/** Whether the engine's run was stopped by its time limit. */
export function isTimedOut(log: EngineLog): boolean {
  return TIME_LIMIT.test(log.error)
}

/**
 * The engine's run of a job, counted and logged with its outcome, its wait from `askedAt` (ms
 * since the epoch: on the queue, when the job was added) to its start, and the engine's time.
 */
async function measured<T extends { log: EngineLog }>(
  job: CadJob,
  scheduling: Scheduling,
  askedAt: number,
  run: (scheduling: Scheduling) => Promise<T>,
  isBuilt: (result: T) => boolean,
): Promise<T> {
  let startedAt: number | undefined
  const onStart = () => {
    startedAt = Date.now()
    scheduling.onStart?.()
  }
  const ended = (outcome: 'built' | 'failed' | 'timed_out' | 'cancelled', error?: string) => {
    const endedAt = Date.now()
    const quality = job.quality ?? 'none'
    metrics.builds.inc({ engine: job.cadVersion, kind: job.kind, quality, outcome })
    if (startedAt !== undefined) {
      metrics.buildQueueWait.observe({ engine: job.cadVersion, kind: job.kind }, (startedAt - askedAt) / 1000)
      metrics.buildEngineTime.observe({ engine: job.cadVersion, kind: job.kind, quality }, (endedAt - startedAt) / 1000)
    }
    const times =
      startedAt === undefined
        ? { queueWaitMs: endedAt - askedAt }
        : { queueWaitMs: startedAt - askedAt, engineMs: endedAt - startedAt }
    // Why it failed, in the engine's or slicer's first words (a slice's error reaches an operator only here).
    const why = error && {
      error: error
        .replace(/^ERROR: /, '')
        .split('\n')[0]!
        .slice(0, 300),
    }
    logger.info(
      { cacheKey: job.key, engine: job.cadVersion, kind: job.kind, quality, outcome, ...times, ...why },
      'build',
    )
  }
  try {
    const result = await run({ ...scheduling, onStart })
    if (isBuilt(result)) ended('built')
    else ended(isTimedOut(result.log) ? 'timed_out' : 'failed', result.log.error)
    return result
  } catch (error) {
    // A prefetch candidate no worker was free for never ran.
    if (!isDropped(error)) ended(scheduling.signal?.aborted ? 'cancelled' : 'failed')
    throw error
  }
}

/** What the engine builds a build, parts, export or refusals job from: the files, the job's values and quality, its limits. */
async function buildInputOf(job: CadJob, source: Promise<ModelSource>) {
  return { ...(await source), values: job.values, overrides: job.overrides, ...job.limits }
}

type EngineInput = Awaited<ReturnType<typeof buildInputOf>> & { scheduling: Scheduling }

/** `call` on the job's engine with the job's input, measured as every run is. */
async function runEngine<T extends { log: EngineLog }>(
  job: CadJob,
  scheduling: Scheduling,
  source: Promise<ModelSource>,
  askedAt: number,
  call: (engine: CadEngine, input: EngineInput) => Promise<T>,
  isBuilt: (result: T) => boolean,
): Promise<T> {
  const engine = getEngine(job.cadType, job.cadVersion)
  const input = await buildInputOf(job, source)
  return measured(job, scheduling, askedAt, (measuring) => call(engine, { ...input, scheduling: measuring }), isBuilt)
}

export async function runBuildJob(
  job: CadJob,
  scheduling: Scheduling,
  source = readSource(job),
  askedAt = Date.now(),
): Promise<CachedBuild> {
  const { mesh, log } = await runEngine(
    job,
    scheduling,
    source,
    askedAt,
    (engine, input) => engine.build(input),
    (built) => built.mesh !== null,
  )
  return storeBuild(job.key, mesh, log)
}

export async function runParametersJob(
  job: CadJob,
  scheduling: Scheduling,
  source = readSource(job),
  askedAt = Date.now(),
): Promise<ReadParameters> {
  const engine = getEngine(job.cadType, job.cadVersion)
  const input = { ...(await source), ...job.limits }
  const { ok, parameters, log } = await measured(
    job,
    scheduling,
    askedAt,
    (measuring) => engine.readParameters({ ...input, scheduling: measuring }),
    (read) => read.ok,
  )
  return storeParameters(job.key, ok, parameters, log)
}

/** A build's parts closed and measured for manufacturing (CadEngine.closeParts). */
export async function runPartsJob(
  job: CadJob,
  scheduling: Scheduling,
  source = readSource(job),
  askedAt = Date.now(),
): Promise<CachedBuild> {
  const union = (await findBuild(job.buildKey!))?.mesh
  if (!union) throw new Error(`the build ${job.buildKey} to close the parts of is not in the cache`)
  // A 2D model's parts are its outline's pieces, for cutting: nothing to close, whatever its engine.
  if (isFlat(union)) return storeBuild(job.key, union, { message: '', error: '' }, measureFlatParts(union))
  const { mesh, log, print } = await runEngine(
    job,
    scheduling,
    source,
    askedAt,
    (engine, input) => engine.closeParts({ ...input, union }),
    (closed) => closed.mesh !== null,
  )
  return storeBuild(job.key, mesh, log, print)
}

/** The model written by its engine as a file of `exportType` (STEP). */
export async function runExportJob(
  job: CadJob,
  scheduling: Scheduling,
  source = readSource(job),
  askedAt = Date.now(),
): Promise<CachedBuild> {
  if (!getEngine(job.cadType, job.cadVersion).exportModel)
    throw new Error(`the ${job.cadType} engine writes no ${job.exportType}`)
  const { file, log } = await runEngine(
    job,
    scheduling,
    source,
    askedAt,
    (engine, input) => engine.exportModel!({ ...input, type: job.exportType! }),
    (written) => written.file !== null,
  )
  return storeBuild(job.key, null, log, null, file)
}

/** A model's closed parts sliced by PrusaSlicer with the job's config: the figures, as the stored file, or why it failed. */
export async function runSliceJob(job: CadJob, scheduling: Scheduling, _source?: unknown, askedAt = Date.now()) {
  const parts = (await findBuild(job.buildKey!))?.mesh
  if (!parts) throw new Error(`the parts ${job.buildKey} to slice are not in the cache`)
  const config = job.sliceConfig!
  const model = write3mf(parts, undefined, 'model', extrudersOf(config))
  const { log, ...result } = await measured(
    job,
    scheduling,
    askedAt,
    async (measuring) => {
      const sliced = await sliceScheduled({ model, config }, measuring)
      return { ...sliced, log: { message: sliced.log, error: sliced.figures ? '' : `ERROR: ${sliced.error}` } }
    },
    (sliced) => sliced.figures !== null,
  )
  const file = result.figures && new TextEncoder().encode(JSON.stringify(result.figures))
  return storeBuild(job.key, null, log, null, file)
}

/** A map's budget: at most this many evaluations and this long (docs/refused-values.md). */
export const REFUSALS_BUDGET = { evaluations: 120, timeMs: 20_000 }

/** The values of a parameter the model refuses (CadEngine.refusedValues), stored as JSON; an engine that cannot evaluate without building says so. */
export async function runRefusalsJob(
  job: CadJob,
  scheduling: Scheduling,
  source = readSource(job),
  askedAt = Date.now(),
): Promise<CachedBuild> {
  const found = getEngine(job.cadType, job.cadVersion).refusedValues
    ? await runEngine(
        job,
        scheduling,
        source,
        askedAt,
        (engine, input) => engine.refusedValues!({ ...input, parameter: job.parameter!, budget: REFUSALS_BUDGET }),
        (searched) => searched.complete,
      )
    : {
        refusals: { searched: false, reason: 'this CAD system evaluates a model only by building it' },
        complete: true,
        evaluations: 0,
        log: { message: '', error: '' },
      }
  const { log, ...map } = found
  return storeBuild(job.key, null, log, null, new TextEncoder().encode(JSON.stringify(map)))
}

export const RUN = {
  build: runBuildJob,
  parts: runPartsJob,
  export: runExportJob,
  slice: runSliceJob,
  refusals: runRefusalsJob,
}

/**
 * Runs the job and resolves once its result is stored: for a build worker, whose asker reads the
 * stored copy, or this process's memory when it asked itself.
 */
export async function runCadJob(
  job: CadJob,
  scheduling: Scheduling,
  source: Promise<ModelSource>,
  askedAt: number,
): Promise<void> {
  if (job.kind === 'parameters') return void (await runParametersJob(job, scheduling, source, askedAt))
  remember(await RUN[job.kind](job, scheduling, source, askedAt))
  await buildStored(job.key)
}
