import { type CachedBuild, findBuild, getCachedBuild } from '@/lib/builds/build-cache'
import { type CadJob, RUN, runParametersJob } from '@/lib/builds/cad-job'
import { loadParameters, type ReadParameters } from '@/lib/builds/parameter-cache'
import { type BuildOwner, isBackgroundWork, mayStop, runOwnedJob } from '@/lib/queue/scheduling'
import { isDropped } from '@/lib/cad/worker-pool'

// What sessions ask of builds: the parameters a model declares, a model, its parts closed for
// manufacturing. Each is answered from the cache, or run once however many ask, scheduled
// fairly among its owners, on this process's workers or on the build queue.

/** Reads under way or done here; `promote` makes a background read (a preparation's) a customer's. */
const parameterReads = new Map<string, { result: Promise<ReadParameters>; promote: () => void }>()

/**
 * The parameters a `parameters` job reads, read by the engine once per key and cached like
 * builds: also when the read failed, so a runaway model costs its time limit once.
 */
export async function readParameters(owner: BuildOwner, job: CadJob): Promise<ReadParameters> {
  const known = parameterReads.get(job.key)
  if (!isBackgroundWork(owner)) known?.promote()
  if (known) return { ...(await known.result), source: 'memory' }
  let promote!: () => void
  const foreground = new Promise<void>((resolve) => (promote = resolve))
  const run = { job, ranSource: 'read' as const, run: runParametersJob, load: loadParameters }
  const result = (async () => (await loadParameters(job.key)) ?? runOwnedJob(owner, run, undefined, foreground))()
  result.catch(() => parameterReads.delete(job.key))
  parameterReads.set(job.key, { result, promote })
  return result
}

/**
 * The model a `build`, `parts` or `export` job makes: from the cache when any session built the same inputs
 * before, otherwise built once, here or on the build queue. Aborting stops waiting for the build,
 * and stops the build when nobody else waits for it.
 */
export function getBuild(owner: BuildOwner, job: CadJob, signal?: AbortSignal): Promise<CachedBuild> {
  const run = {
    job,
    ranSource: 'built' as const,
    run: RUN[job.kind as keyof typeof RUN],
    load: findBuild,
  }
  const build = () =>
    getCachedBuild(
      job.key,
      (buildSignal, foreground) => runOwnedJob(owner, run, buildSignal, foreground),
      mayStop(owner) ? signal : undefined,
      isBackgroundWork(owner),
    )
  // Joined a prefetch candidate of the same values that no worker took: this one is no prefetch.
  return build().catch((error: unknown) => (isDropped(error) && !owner.prefetch ? build() : Promise.reject(error)))
}
