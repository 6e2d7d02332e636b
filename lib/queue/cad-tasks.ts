// The build queue's task names (graphile-worker's task identifiers), read by the queue, its
// workers, and the fair shares, which look at who waits.

export const CAD_TASK = 'cad'
/** Background work's task: each worker process runs it on its own low-priority slot (lib/cad/worker-pool.ts). */
export const CAD_BACKGROUND_TASK = 'cad-background'
