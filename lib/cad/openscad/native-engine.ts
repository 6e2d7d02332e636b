import os from 'node:os'
import type { CadEngine } from '@/lib/cad/engine'
import type { NativeBinary } from '@/lib/cad/openscad/native-openscad'
import type { OpenscadJob, OpenscadJobResult } from '@/lib/cad/openscad/openscad-job'
import { openscadEngineOn, openscadPool, runOn } from '@/lib/cad/openscad/openscad-engine'
import type { WorkerPool } from '@/lib/cad/worker-pool'
import { env } from '@/lib/env'

const globalForPool = globalThis as unknown as { paraformNativePool?: WorkerPool<OpenscadJob, OpenscadJobResult> }

function nativePool(): WorkerPool<OpenscadJob, OpenscadJobResult> {
  globalForPool.paraformNativePool ??= openscadPool('lib/cad/openscad/native-worker.ts')
  return globalForPool.paraformNativePool
}

/**
 * A native OpenSCAD as a CadEngine: each run a child process in its sandbox (native-openscad.ts),
 * started by worker threads of its own, so that scheduling, fair shares, time limits and
 * cancellation are the embedded engine's. Each build takes its share of the machine's cores, and
 * its threads stay on them.
 */
export function nativeOpenscadEngine(binary: NativeBinary): CadEngine {
  const held = new Int32Array(new SharedArrayBuffer(4 * os.availableParallelism()))
  const perBuild = Math.max(1, Math.floor(held.length / Math.max(1, env.BUILD_WORKERS)))
  let claims = 0
  const run = runOn(nativePool)
  return openscadEngineOn(
    async (job, options) => {
      claims = (claims % 0x7fffffff) + 1
      const claim = claims
      try {
        return await run({ ...job, native: { timeLimitMs: options.timeLimitMs, cores: { held, claim, perBuild }, writesColours: binary.writesColours } }, options)
      } finally {
        // A worker stopped mid-run (time limit, cancellation) cannot give its cores back itself.
        for (let core = 0; core < held.length; core++) Atomics.compareExchange(held, core, claim, 0)
      }
    },
    { probesFonts: binary.hasTextmetrics },
  )
}
