import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { CadEngine } from '@/lib/cad/engine'
import { type NativeBinary, RUN_FOLDER_PREFIX } from '@/lib/cad/openscad/native-openscad'
import type { OpenscadJob, OpenscadJobResult } from '@/lib/cad/openscad/openscad-job'
import { openscadEngineOn, openscadPool, runOn } from '@/lib/cad/openscad/openscad-engine'
import type { WorkerPool } from '@/lib/cad/worker-pool'
import { env } from '@/lib/env'
import { processSingleton } from '@/lib/process-singleton'

/**
 * Made at start-up by the custom server or the build worker (warmUpEngines), outside Next's
 * bundle, whose copy of this module finds it on globalThis: a worker thread started from the
 * bundle cannot load its TypeScript.
 */
export function nativePool(): WorkerPool<OpenscadJob, OpenscadJobResult> {
  return processSingleton('nativePool', () => openscadPool('lib/cad/openscad/native-worker.ts'))
}

/**
 * A native OpenSCAD as a CadEngine: each run a child process in its sandbox (native-openscad.ts),
 * started by worker threads of its own, so that scheduling, fair shares, time limits and
 * cancellation are the embedded engine's. Each build takes its share of the machine's cores, and
 * its threads stay on them.
 */
export function nativeOpenscadEngine(binary: NativeBinary): CadEngine {
  removeRunFolders((name) => {
    const owner = new RegExp(`^${RUN_FOLDER_PREFIX}(\\d+)-\\d+-`).exec(name)?.[1]
    return owner !== undefined && !isRunning(Number(owner))
  })
  const held = new Int32Array(new SharedArrayBuffer(4 * os.availableParallelism()))
  const perBuild = Math.max(1, Math.floor(held.length / Math.max(1, env.BUILD_WORKERS)))
  let claims = 0
  const run = runOn(nativePool)
  return openscadEngineOn(
    async (job, options) => {
      claims = (claims % 0x7fffffff) + 1
      const claim = claims
      const folderPrefix = `${RUN_FOLDER_PREFIX}${process.pid}-${claim}-`
      try {
        return await run(
          {
            ...job,
            native: {
              timeLimitMs: options.timeLimitMs,
              cores: { held, claim, perBuild },
              writesColours: binary.writesColours,
              folderPrefix,
            },
          },
          options,
        )
      } finally {
        // A worker stopped mid-run (time limit, cancellation) cannot give its cores back or remove its run's folder itself.
        for (let core = 0; core < held.length; core++) Atomics.compareExchange(held, core, claim, 0)
        removeRunFolders((name) => name.startsWith(folderPrefix))
      }
    },
    { probesFonts: binary.hasTextmetrics },
  )
}

/** Removes the run folders left in the temporary directory that `isLeft` picks (by name). */
function removeRunFolders(isLeft: (name: string) => boolean): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (name.startsWith(RUN_FOLDER_PREFIX) && isLeft(name))
      fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true })
  }
}

/** Whether a process of this id runs (its builds' folders are its own); folders of a process that ended are left over. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
