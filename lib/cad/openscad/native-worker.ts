// A worker thread that runs each OpenSCAD run of a job as a native OpenSCAD in its sandbox
// (native-openscad.ts), on cores of its own. Started by lib/cad/worker-pool.ts for
// native-engine.ts; OPENSCAD_BINARY names the binary. Relative imports: a worker thread.
import { parentPort } from 'node:worker_threads'
import { meshBuffers, WORKER_READY } from '../worker-pool'
import { probeBinary, runNative } from './native-openscad'
import type { CoreClaim, OpenscadJob } from './openscad-job'
import { fontFiles, runJob } from './openscad-runs'

if (!parentPort) throw new Error('native-worker must run in a worker thread')
const port = parentPort
const binary = probeBinary(process.env.OPENSCAD_BINARY ?? '')

/** Up to `perBuild` free cores, claimed for this job; none when every core is taken (a background job beside builds). */
function claimCores({ held, claim, perBuild }: CoreClaim): number[] {
  const cores: number[] = []
  for (let core = 0; core < held.length && cores.length < perBuild; core++) {
    if (Atomics.compareExchange(held, core, 0, claim) === 0) cores.push(core)
  }
  return cores
}

port.on('message', (job: OpenscadJob) => void answer(job))

async function answer(job: OpenscadJob): Promise<void> {
  const { timeLimitMs, cores, folderPrefix } = job.native!
  const cpus = claimCores(cores)
  try {
    const result = await runJob(job, (job, format, input) =>
      runNative(binary, {
        files: job.files,
        mainFile: job.mainFile,
        libraries: job.libraries,
        fonts: fontFiles(job),
        defines: job.defines,
        format,
        input,
        timeLimitMs,
        memoryLimitBytes: job.memoryLimitBytes,
        cpus,
        folderPrefix,
      }),
    )
    port.postMessage(result, meshBuffers(result.mesh))
  } finally {
    for (const core of cpus) Atomics.compareExchange(cores.held, core, cores.claim, 0)
  }
  port.postMessage(WORKER_READY)
}
port.postMessage(WORKER_READY)
