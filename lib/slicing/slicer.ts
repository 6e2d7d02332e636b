import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isDropped, type Scheduling, WorkerPool } from '@/lib/cad/worker-pool'
import { env } from '@/lib/env'
import { processSingleton } from '@/lib/process-singleton'
import { SLICE_FOLDER_PREFIX, type SliceInput, type SliceResult } from '@/lib/slicing/prusa-slicer'

/** A slice's limits: PrusaSlicer takes seconds for a demo model, minutes for a large detailed one. */
export const SLICE_LIMITS = { timeLimitMs: 180_000, memoryLimitBytes: 4 * 1024 * 1024 * 1024 }

/**
 * The slicer's workers: one for slices someone waits for (a snapshot before its quote arrived),
 * one at the lowest priority for the background, which waits for the customers of the engines'
 * pools too (sharesMachine) and stands still while they build (pausesForCustomers): even at nice 19
 * a running slice slowed a customer's moves by a quarter (docs/slicing.md).
 */
function slicerPool(): WorkerPool<SliceInput, SliceResult> {
  return processSingleton(
    'slicerPool',
    () =>
      new WorkerPool<SliceInput, SliceResult>({
        script: path.join(process.cwd(), 'lib/slicing/slicer-worker.ts'),
        size: env.BUILD_WORKERS > 0 ? 1 : 0,
        backgroundSize: env.BUILD_WORKERS > 0 ? 1 : 0,
        maxHeapMb: 256,
        sharesMachine: true,
        pausesForCustomers: true,
      }),
  )
}

/**
 * Starts the slicer's workers where PrusaSlicer is, at start-up: by the custom server or the build
 * worker, outside Next's bundle, whose copy of this module finds the pool on globalThis (a worker
 * thread started from the bundle cannot load its TypeScript).
 */
export function startSlicer(): void {
  if (isSlicerInstalled()) slicerPool()
}

let installed: boolean | undefined

/** Whether this machine has PrusaSlicer (PRUSA_SLICER), looked at once per process. */
export function isSlicerInstalled(): boolean {
  return (installed ??= fs.existsSync(env.PRUSA_SLICER))
}

let slices = 0

/** Slices the 3MF with the config on the slicer's workers, scheduled as the owner's CAD runs are; a failure of the run is a result. */
export async function sliceScheduled(
  input: Pick<SliceInput, 'model' | 'config'>,
  scheduling: Scheduling,
): Promise<SliceResult> {
  slices = (slices % 0x7fffffff) + 1
  const folderPrefix = `${SLICE_FOLDER_PREFIX}${process.pid}-${slices}-`
  try {
    return await slicerPool().run(
      { ...input, ...SLICE_LIMITS, binary: env.PRUSA_SLICER, folderPrefix },
      // The sandbox stops the slicer at its limit and says so; the thread's own limit is for a thread that hangs.
      { ...scheduling, timeLimitMs: SLICE_LIMITS.timeLimitMs + 10_000 },
    )
  } catch (error) {
    if (scheduling.signal?.aborted || isDropped(error)) throw error
    return { figures: null, error: (error as Error).message, log: '' }
  } finally {
    // A worker stopped mid-slice (time limit, cancellation) cannot remove its folder itself.
    for (const name of fs.readdirSync(os.tmpdir()))
      if (name.startsWith(folderPrefix)) fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true })
  }
}
