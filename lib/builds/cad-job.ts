import { buildStored, type CachedBuild, findBuild, remember, storeBuild } from '@/lib/builds/build-cache'
import type { EngineLimits, ModelSource, ParameterValue } from '@/lib/cad/engine'
import { getEngine } from '@/lib/cad/engine-versions'
import { type ReadParameters, storeParameters } from '@/lib/builds/parameter-cache'
import type { Scheduling } from '@/lib/cad/worker-pool'
import { hostFonts } from '@/lib/cad/fonts/host-fonts'
import { type LibraryRef, readLibraryFiles } from '@/lib/builds/library-files'
import { recentReads } from '@/lib/recent-reads'
import { blobStore, type StoredFile } from '@/lib/storage/blob-store'

/**
 * One run of a CAD engine, described by content hashes only, so that any process sharing the
 * database and the storage can run it: in the web process that asked, or on the build queue.
 * Its result goes to the cache under `key`.
 */
export interface CadJob {
  kind: 'build' | 'parameters' | 'parts'
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
  /** Of a `parts` job: the key of the build whose parts it closes, cached before the job starts. */
  buildKey?: string
}

// A model's files, by content hash, as its builds read them: every slider move builds the same files.
const readModelFile = recentReads(64, (blobHash: string) => blobHash, async (blobHash) => new Uint8Array(await blobStore.readBuffer(blobHash)))

/** Everything the engine needs of the job but its values. */
export async function readSource(job: CadJob): Promise<ModelSource> {
  // The key holds the asking machine's fonts: a model built with others would be cached under it wrongly.
  if (!job.fonts && job.fontsHash !== hostFonts().hash) {
    throw new Error('this build worker has other fonts than the web instance that asked (FONT_DIRS); every machine needs the same fonts')
  }
  const read = (stored: StoredFile[]) => Promise.all(stored.map(async ({ path, blobHash }) => ({ path, data: await readModelFile(blobHash) })))
  const [files, libraries, fonts] = await Promise.all([read(job.files), readLibraryFiles(job.libraries), job.fonts && read(job.fonts)])
  return { files, libraries, fonts, mainFile: job.mainFile }
}

export async function runBuildJob(job: CadJob, scheduling: Scheduling, source = readSource(job)): Promise<CachedBuild> {
  const { mesh, log } = await getEngine(job.cadType, job.cadVersion).build({ ...(await source), values: job.values, overrides: job.overrides, ...job.limits, scheduling })
  return storeBuild(job.key, mesh, log)
}

export async function runParametersJob(job: CadJob, scheduling: Scheduling, source = readSource(job)): Promise<ReadParameters> {
  const { ok, parameters, log } = await getEngine(job.cadType, job.cadVersion).readParameters({ ...(await source), ...job.limits, scheduling })
  return storeParameters(job.key, ok, parameters, log)
}

/** A build's parts closed and measured for manufacturing (CadEngine.closeParts). */
export async function runPartsJob(job: CadJob, scheduling: Scheduling, source = readSource(job)): Promise<CachedBuild> {
  const union = (await findBuild(job.buildKey!))?.mesh
  if (!union) throw new Error(`the build ${job.buildKey} to close the parts of is not in the cache`)
  const { mesh, log, print } = await getEngine(job.cadType, job.cadVersion).closeParts({ ...(await source), values: job.values, overrides: job.overrides, ...job.limits, scheduling, union })
  return storeBuild(job.key, mesh, log, print)
}

const RUN = { build: runBuildJob, parts: runPartsJob }

/**
 * Runs the job and resolves once its result is stored: for a build worker, whose asker reads the
 * stored copy, or this process's memory when it asked itself.
 */
export async function runCadJob(job: CadJob, scheduling: Scheduling, source?: Promise<ModelSource>): Promise<void> {
  if (job.kind === 'parameters') return void (await runParametersJob(job, scheduling, source))
  remember(await RUN[job.kind](job, scheduling, source))
  await buildStored(job.key)
}
