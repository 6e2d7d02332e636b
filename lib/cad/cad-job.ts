import { type CachedBuild, storeBuild } from '@/lib/cad/build-cache'
import type { EngineLimits, ModelSource, ParameterValue } from '@/lib/cad/engine'
import { getEngine } from '@/lib/cad/get-engine'
import { type ReadParameters, storeParameters } from '@/lib/cad/parameter-cache'
import type { Scheduling } from '@/lib/cad/worker-pool'
import { type LibraryRef, readLibraryFiles } from '@/lib/libraries/libraries'
import { blobStore } from '@/lib/storage/blob-store'

/**
 * One run of a CAD engine, described by content hashes only, so that any process sharing the
 * database and the storage can run it: in the web process that asked, or on the build queue.
 * Its result goes to the cache under `key`.
 */
export interface CadJob {
  kind: 'build' | 'parameters'
  /** The cache key: a hash of everything below. */
  key: string
  cadType: string
  mainFile: string
  files: { path: string; blobHash: string }[]
  /** The installed libraries, each by version. */
  libraries: LibraryRef[]
  limits: EngineLimits
  /** Of a build: the parameter values and the quality's engine variables. */
  values: Record<string, ParameterValue>
  overrides: Record<string, ParameterValue>
}

async function readSource(job: CadJob): Promise<ModelSource> {
  const [files, libraries] = await Promise.all([
    Promise.all(job.files.map(async ({ path, blobHash }) => ({ path, data: new Uint8Array(await blobStore.readBuffer(blobHash)) }))),
    readLibraryFiles(job.libraries),
  ])
  return { files, libraries, mainFile: job.mainFile }
}

export async function runBuildJob(job: CadJob, scheduling: Scheduling): Promise<CachedBuild> {
  const { mesh, log } = await getEngine(job.cadType).build({ ...(await readSource(job)), values: job.values, overrides: job.overrides, ...job.limits, scheduling })
  return storeBuild(job.key, mesh, log)
}

export async function runParametersJob(job: CadJob, scheduling: Scheduling): Promise<ReadParameters> {
  const { ok, parameters, log } = await getEngine(job.cadType).readParameters({ ...(await readSource(job)), ...job.limits, scheduling })
  return storeParameters(job.key, ok, parameters, log)
}

export function runCadJob(job: CadJob, scheduling: Scheduling): Promise<unknown> {
  return job.kind === 'build' ? runBuildJob(job, scheduling) : runParametersJob(job, scheduling)
}
