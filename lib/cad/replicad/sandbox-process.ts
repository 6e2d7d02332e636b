// The child of replicad-sandbox.ts (docs/replicad-sandbox.md): boots OpenCascade and replicad
// once, locks the realm down with SES, then builds designers' replicad models one request at a
// time, each in a Compartment of its own. It runs inside bubblewrap, under plain `node` with type
// stripping: erasable TypeScript only, and no relative import but types.
import fs from 'node:fs'
import inspector from 'node:inspector/promises'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { inspect } from 'node:util'
import vm from 'node:vm'
import * as replicad from 'replicad'
import opencascade from 'replicad-opencascadejs'
import 'ses'
import type {
  BinaryRef,
  BuildAnswerOf,
  BuildRequest,
  ChildMessage,
  Drawing2d,
  PartOf,
  StepAnswer,
  WireAnswer,
} from './protocol.ts'

/** The model's file name in stacks and the log, unless a request names it: its line numbers are those of its source. */
const MODEL_FILE = 'model.js'
/** After an answer that leaves the child above this RSS, it exits and its parent starts a fresh one. */
const RECYCLE_RSS_BYTES = Number(process.env.RECYCLE_RSS_BYTES) || 1024 * 1024 * 1024
/** Lines and characters a build may print before the rest is cut. */
const LOG_LINES = 1000
const LOG_LINE_CHARS = 2000
/** A trap with less writable memory than this left below RLIMIT_DATA was OpenCascade running out of it. */
const MEMORY_MARGIN_BYTES = 160 * 1024 * 1024

type Shape = replicad.AnyShape
type Part = PartOf<Float32Array, Uint32Array>

/** What a build printed, bounded: a model that prints in a loop must not fill the child's memory. */
class BuildLog {
  readonly lines: string[] = []
  private cut = 0

  add(line: string): void {
    if (this.lines.length < LOG_LINES)
      this.lines.push(line.length > LOG_LINE_CHARS ? `${line.slice(0, LOG_LINE_CHARS)}...` : line)
    else this.cut++
  }

  /** The printed lines, then the build's own errors, which are never cut. */
  close(errors: string[]): string[] {
    return [...this.lines, ...(this.cut ? [`... ${this.cut} more lines cut`] : []), ...errors]
  }
}

/** The build running now: where OpenCascade's and replicad's own prints go. */
let current: BuildLog | undefined

/** A line of the host's (replicad, OpenCascade): into the running build's log, else onto stderr, never stdout. */
function hostSays(line: string): void {
  if (current) current.add(line)
  else process.stderr.write(`${line}\n`)
}

// OpenCascade prints transfer statistics on every STEP export: noise in a designer's log.
const OCCT_NOISE = /^\s*(\*.*|Step File Name.*)?$/

function formatted(values: unknown[]): string {
  return values
    .map((value) =>
      typeof value === 'string'
        ? value
        : inspect(value, { customInspect: false, getters: false, depth: 4, breakLength: Infinity }),
    )
    .join(' ')
}

/** A console that writes to `say`: the start compartment's, and, one per build, each model's. */
function makeConsole(say: (line: string) => void) {
  const print =
    (prefix: string) =>
    (...values: unknown[]) =>
      say(prefix + formatted(values))
  return {
    log: print(''),
    info: print(''),
    debug: print(''),
    warn: print('WARNING: '),
    error: print('ERROR: '),
  }
}

// ---------------------------------------------------------------------------------------------
// Answers up stdout, in frames (protocol.ts); nothing else may write there.

async function send(message: ChildMessage, binaries: ArrayBufferView[] = []): Promise<void> {
  const json = Buffer.from(JSON.stringify(message))
  const pieces: Uint8Array[] = [json, padding(json.length)]
  for (const binary of binaries) {
    pieces.push(new Uint8Array(binary.buffer, binary.byteOffset, binary.byteLength), padding(binary.byteLength))
  }
  const rest = pieces.reduce((sum, piece) => sum + piece.length, 4)
  const header = Buffer.alloc(8)
  header.writeUInt32LE(rest, 0)
  header.writeUInt32LE(json.length, 4)
  process.stdout.write(header)
  for (const piece of pieces.slice(0, -1)) process.stdout.write(piece)
  await new Promise((resolve) => process.stdout.write(pieces.at(-1)!, resolve))
}

function padding(length: number): Uint8Array {
  return new Uint8Array((4 - (length % 4)) % 4)
}

// ---------------------------------------------------------------------------------------------
// Boot: OpenCascade, then lockdown, then everything a model can reach hardened.

/**
 * The Blob replicad makes (exportSTEP, blobSTEP, blobSTL) and a model may keep: bytes in plain
 * JavaScript, hardened. Node's Blob holds a native handle whose prototype a model could reach and
 * change for every later build.
 */
class SandboxBlob {
  readonly type: string
  readonly #bytes: Uint8Array

  constructor(parts: Iterable<unknown> = [], options: { type?: string } = {}) {
    const chunks = [...parts].map((part) =>
      part instanceof SandboxBlob
        ? part.#bytes
        : typeof part === 'string'
          ? new TextEncoder().encode(part)
          : ArrayBuffer.isView(part)
            ? new Uint8Array(part.buffer, part.byteOffset, part.byteLength)
            : new Uint8Array(part as ArrayBuffer),
    )
    this.#bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0))
    let offset = 0
    for (const chunk of chunks) {
      this.#bytes.set(chunk, offset)
      offset += chunk.length
    }
    this.type = String(options.type ?? '')
  }

  get size(): number {
    return this.#bytes.length
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#bytes.slice().buffer
  }

  async bytes(): Promise<Uint8Array> {
    return this.#bytes.slice()
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(this.#bytes)
  }

  slice(start?: number, end?: number, type?: string): SandboxBlob {
    return new SandboxBlob([this.#bytes.slice(start, end)], { type })
  }
}

const booted = performance.now()
globalThis.console = makeConsole(hostSays) as unknown as Console
// Host powers nothing here needs after boot; replicad's loadFont would fetch a URL with them.
for (const name of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest']) Reflect.deleteProperty(globalThis, name)
// replicad makes its Blobs from the global at call time; Node's own modules keep theirs.
globalThis.Blob = SandboxBlob as unknown as typeof Blob

const wasm = fileURLToPath(import.meta.resolve('replicad-opencascadejs/wasm'))
const occtSays = (line: string) => {
  if (!OCCT_NOISE.test(line)) hostSays(line)
}
const oc = (await opencascade({ locateFile: () => wasm, print: occtSays, printErr: occtSays })) as unknown as Record<
  string,
  unknown
> & {
  FS: {
    readFile(path: string, options?: object): Uint8Array
    writeFile(path: string, data: Uint8Array): void
    unlink(path: string): void
  }
  wasmMemory: WebAssembly.Memory
  getExceptionMessage(error: WebAssemblyException): [string, string]
  decrementExceptionRefcount(error: WebAssemblyException): void
}

// Emscripten's runtime on the module: its heap, allocator and file system are no model's business.
const RUNTIME = new Set([
  'FS',
  'wasmMemory',
  'calledRun',
  'locateFile',
  'print',
  'printErr',
  'preInit',
  'preRun',
  'postRun',
  'getExceptionMessage',
  'incrementExceptionRefcount',
  'decrementExceptionRefcount',
])
/** OpenCascade's global parameters (STEP units among them): a model that set one would set it for the next. */
const GLOBAL_STATE = new Set(['Interface_Static'])

/** The embind classes, enums and functions: what replicad's objects show a model as `.oc`. */
const bindings = Object.fromEntries(
  Object.entries(oc).filter(([key]) => !key.startsWith('_') && !RUNTIME.has(key) && !GLOBAL_STATE.has(key)),
)
/**
 * What replicad itself gets as OpenCascade: the module can be neither hardened (emscripten
 * replaces its heap views as memory grows) nor handed to a model, so replicad gets the bindings
 * and the little of the runtime it uses, read-only.
 */
const library = {
  ...bindings,
  Interface_Static: oc.Interface_Static,
  FS: {
    readFile: (path: string, options?: object) => oc.FS.readFile(path, options),
    writeFile: (path: string, data: Uint8Array) => oc.FS.writeFile(path, data),
    unlink: (path: string) => oc.FS.unlink(path),
  },
  wasmMemory: {
    get buffer() {
      return oc.wasmMemory.buffer
    },
  },
}
replicad.setOC(library as unknown as Parameters<typeof replicad.setOC>[0])
// replicad keeps `this.oc = getOC()` on its objects, where a model reads it: give it the bindings instead.
for (const prototype of [replicad.WrappingObj.prototype, replicad.Plane.prototype]) {
  Object.defineProperty(prototype, 'oc', {
    get: () => bindings,
    set: () => {},
  })
}

/** What `main` gets as `replicad`: the exports, without those that reach past one build. */
const namespace: Record<string, unknown> = { ...replicad }
delete namespace.setOC
delete namespace.getOC
namespace.loadFont = refused('loadFont', 'a model cannot load fonts here')
namespace.setManifold = refused('setManifold', 'the sandbox sets the mesh library')

function refused(name: string, why: string) {
  return () => {
    throw new Error(`${name}() is not available: ${why}`)
  }
}

const embindPointers = await registeredPointers()

lockdown({
  // Our console above stays the host's: SES's would print models' errors on stderr.
  consoleTaming: 'unsafe',
  // A crash ends the child, and its parent reports it; rejections go to the build's log (below).
  errorTrapping: 'none',
  unhandledRejectionTrapping: 'none',
})
// Neither is an intrinsic SES freezes, yet a model gets both: OpenCascade's exceptions are
// WebAssembly.Exception, exportSTEP answers a Blob.
harden([WebAssembly, SandboxBlob])
harden([namespace, bindings, library, embindPointers])

const getStackString = (globalThis as unknown as { getStackString: (error: unknown) => string }).getStackString

process.on('unhandledRejection', (reason) =>
  hostSays(`ERROR: a promise failed and nothing caught it: ${describe(reason).text}`),
)

/**
 * Every embind pointer type, found on the heap: each instance's internal record points at one,
 * and through it at its class's record, so a model could reach and change them from any shape.
 * Only the inspector lists objects by prototype.
 */
async function registeredPointers(): Promise<object[]> {
  const Point = oc.gp_Pnt as new () => { delete(): void }
  const probe = new Point()
  const [record] = Object.values(Object.getOwnPropertyDescriptors(probe)).map(({ value }) => value as object)
  probe.delete()
  const pointerType = Object.values(record!).find(
    (value) => typeof value === 'object' && value !== null && Object.getPrototypeOf(value) !== Object.prototype,
  ) as object
  const key = `paraform${process.pid}`
  const global = globalThis as unknown as Record<string, unknown>
  global[key] = Object.getPrototypeOf(pointerType)
  const session = new inspector.Session()
  session.connect()
  try {
    const { result } = await session.post('Runtime.evaluate', { expression: `globalThis.${key}` })
    const { objects } = await session.post('Runtime.queryObjects', { prototypeObjectId: result.objectId! })
    await session.post('Runtime.callFunctionOn', {
      objectId: objects.objectId!,
      functionDeclaration: `function () { globalThis.${key} = this }`,
    })
    return global[key] as object[]
  } finally {
    session.disconnect()
    delete global[key]
  }
}

// ---------------------------------------------------------------------------------------------
// A model's source: workbench script or ES module, turned into a script line for line.

/** What is wrong with a model, said by the sandbox, at a line of its source where known. */
class ModelError extends Error {
  line: number | undefined
  constructor(message: string, line?: number) {
    super(message)
    this.line = line
  }
}

const STATEMENT = /^([ \t]*)(import|export)(?![\w$])[ \t]*/gm
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

interface Rewritten {
  text: string
  /** Where the rewritten part of the source ends. */
  end: number
}

/**
 * The model as a script SES evaluates: `export` dropped, `import ... from 'replicad'` turned into
 * a declaration over the `replicad` global, and a last line that hands over main, defaultParams
 * and parameters. Only statements at line starts are read (one in a template string would be
 * too), and every line keeps its number.
 */
function toScript(code: string): string {
  let script = ''
  let cursor = 0
  const exported = new Map<string, string>()
  for (const statement of code.matchAll(STATEMENT)) {
    if (statement.index < cursor) continue
    const keyword = statement.index + statement[1]!.length
    const after = statement.index + statement[0].length
    const line = code.slice(0, statement.index).split('\n').length
    const rewritten =
      statement[2] === 'import' ? rewriteImport(code, after, line) : rewriteExport(code, keyword, after, line, exported)
    if (!rewritten) continue
    const original = code.slice(keyword, rewritten.end)
    script += code.slice(cursor, keyword) + rewritten.text + '\n'.repeat(newlines(original) - newlines(rewritten.text))
    cursor = rewritten.end
  }
  script += code.slice(cursor)
  const value = (name: string) => {
    const local = exported.get(name) ?? name
    return `typeof ${local} === 'undefined' ? undefined : ${local}`
  }
  const main = value(exported.has('default') ? 'default' : 'main')
  return `${script}\n;({ main: ${main}, defaultParams: ${value('defaultParams')}, parameters: ${value('parameters')} })\n//# sourceURL=${modelFile}\n`
}

function newlines(text: string): number {
  return text.split('\n').length - 1
}

const blank = (text: string) => text.replace(/[^\n]/g, ' ')

/** `import { a, b as c } from 'replicad'`, `import * as r from 'replicad'` or `import r from 'replicad'`. */
function rewriteImport(code: string, from: number, line: number): Rewritten | undefined {
  // import() and import.meta are expressions: SES refuses the first, and the second is no script's.
  if (/[(.]/.test(code[from] ?? '')) return undefined
  const found = /([^'";]*?)\s*\bfrom\s*(['"])([^'"\n]*)\2[ \t]*;?/y
  found.lastIndex = from
  const match = found.exec(code)
  if (!match || match[3] !== 'replicad')
    throw new ModelError(`a model can import only from "replicad"${match ? `, not from "${match[3]}"` : ''}`, line)
  const clause = match[1]!.trim()
  const named = /^\{([\s\S]*)\}$/.exec(clause)
  const whole = /^(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)$/.exec(clause)
  let text: string
  if (named) text = `const {${named[1]!.replace(/\s+as\s+/g, ': ')}} = replicad;`
  else if (whole) text = whole[1] === 'replicad' ? '' : `const ${whole[1]} = replicad;`
  else throw new ModelError('this import from "replicad" is not one a model can use', line)
  return { text, end: found.lastIndex }
}

/** `export` before a declaration, `export default ...` and `export { a, b as main }`. */
function rewriteExport(
  code: string,
  keyword: number,
  from: number,
  line: number,
  exported: Map<string, string>,
): Rewritten {
  const rest = code.slice(from, from + 200)
  const declared = /^default[ \t]+(?:(?:async[ \t]+)?function\b[ \t]*\*?[ \t]*|class[ \t]+)([A-Za-z_$][\w$]*)/.exec(
    rest,
  )
  if (declared) {
    exported.set('default', declared[1]!)
    const end = from + 'default'.length
    return { text: blank(code.slice(keyword, end)), end }
  }
  const byDefault = /^default\b/.exec(rest)
  if (byDefault) {
    exported.set('default', '__default__')
    return { text: 'const __default__ =', end: from + 'default'.length }
  }
  if (/^(const|let|var|function|async|class)\b/.test(rest)) return { text: blank(code.slice(keyword, from)), end: from }
  const list = /\{([^}]*)\}(\s*from\b)?[ \t]*;?/y
  list.lastIndex = from
  const names = list.exec(code)
  if (!names || names[2]) throw new ModelError('this export is not one a model can use', line)
  for (const specifier of names[1]!.split(',')) {
    const [local, as = local] = specifier.trim().split(/\s+as\s+/)
    if (!local) continue
    if (!IDENTIFIER.test(local) || !IDENTIFIER.test(as!))
      throw new ModelError(`"${specifier.trim()}" cannot be exported`, line)
    exported.set(as!, local)
  }
  return { text: blank(code.slice(keyword, list.lastIndex)), end: list.lastIndex }
}

// ---------------------------------------------------------------------------------------------
// Running a model.

interface Evaluated {
  main?: unknown
  defaultParams?: unknown
  parameters?: unknown
}

/** OpenCascade's C++ exceptions, which TypeScript's WebAssembly does not name yet. */
const WasmException = (WebAssembly as unknown as { Exception: new (...args: never[]) => WebAssemblyException })
  .Exception
type WebAssemblyException = { readonly brand: unique symbol }

/** The running model's file name, as stacks name it. */
let modelFile = MODEL_FILE

/** A place in the model's file that `text` (a stack, SES's message) names first. */
function placeIn(text: string): { line?: number; column?: number } {
  const escaped = modelFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const [, line, column] = new RegExp(`${escaped}:(\\d+)(?::(\\d+))?`).exec(text) ?? []
  return { line: line ? Number(line) : undefined, column: column ? Number(column) : undefined }
}

/** `ERROR: <what> (<file>:<line>:<column>)`, the place when known. */
function errorLine(text: string, line?: number, column?: number): string {
  const flat = text.replace(/\s*\n\s*/g, ' ')
  return line === undefined ? `ERROR: ${flat}` : `ERROR: ${flat} (${modelFile}:${line}${column ? `:${column}` : ''})`
}

interface Described {
  text: string
  line?: number
  column?: number
  /** OpenCascade trapped (out of memory, or worse): its heap cannot be trusted for another build. */
  trapped?: boolean
}

/** A thrown value as a line of the log, at the model's line where its stack names one. */
function describe(thrown: unknown): Described {
  if (thrown instanceof ModelError) return { text: thrown.message, line: thrown.line }
  if (thrown instanceof WasmException) {
    try {
      const [type, message] = oc.getExceptionMessage(thrown)
      oc.decrementExceptionRefcount(thrown)
      return { text: `OpenCascade ${type}: ${message}` }
    } catch {
      return { text: 'OpenCascade failed' }
    }
  }
  try {
    if (!(thrown instanceof Error)) return { text: typeof thrown === 'string' ? thrown : formatted([thrown]) }
    const text = `${thrown.name}: ${thrown.message}`
    return {
      text: /allocation failed/i.test(thrown.message) ? `${memoryError()} (${text})` : text,
      ...placeIn(`${getStackString(thrown)}\n${thrown.message}`),
      trapped: thrown instanceof WebAssembly.RuntimeError,
    }
  } catch {
    return { text: 'an exception that could not be read' }
  }
}

/** Where a syntax error is: V8 names the line when it compiles a script, though not through eval. */
function syntaxErrorLine(script: string): number | undefined {
  try {
    new vm.Script(`'use strict';${script}`, { filename: modelFile })
  } catch (error) {
    // The stack of a script's syntax error begins with `<file>:<line>` and the line's text.
    const first = String((error as Error).stack).split('\n')[0]!
    if (first.startsWith(`${modelFile}:`)) return placeIn(first).line
  }
  return undefined
}

/** What a build made that its answer needs, and that is deleted once answered. */
interface Built {
  parts?: { shape: Shape; name: string; color?: string }[]
  drawing?: replicad.Drawing
}

const FLOAT_ARRAYS = Object.fromEntries(
  ['Float16Array', 'Float32Array', 'Float64Array'].flatMap((name) =>
    name in globalThis ? [[name, Reflect.get(globalThis, name)]] : [],
  ),
)

async function run(request: BuildRequest, log: BuildLog, evaluated: Evaluated): Promise<Built> {
  const script = toScript(request.code)
  const compartment = new Compartment()
  Object.assign(compartment.globalThis, {
    console: harden(makeConsole((line) => log.add(line))),
    replicad: namespace,
    // SES leaves the float arrays out of compartments for the NaN side channel, a channel between
    // programs that share a buffer: a model shares none, and needs them for its numbers.
    ...FLOAT_ARRAYS,
  })
  try {
    Object.assign(evaluated, compartment.evaluate(script) as Evaluated)
  } catch (error) {
    if (error instanceof SyntaxError && placeIn(error.message).line === undefined) {
      const line = syntaxErrorLine(script)
      if (line) throw new ModelError(`${error.name}: ${error.message}`, line)
    }
    if (error instanceof Error && error.message.includes('SES_IMPORT_REJECTED'))
      throw new ModelError('a model cannot import modules: import() is not available', placeIn(error.message).line)
    throw error
  }
  if (request.kind === 'parameters') return {}
  if (typeof evaluated.main !== 'function')
    throw new ModelError('the model has no main function: define `function main(replicad, params)` or export one')
  const params = { ...(evaluated.defaultParams as object), ...request.values }
  let result = (evaluated.main as (replicad: unknown, params: unknown) => unknown)(namespace, params)
  if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') result = await result
  return builtOf(result)
}

function builtOf(result: unknown): Built {
  if (result instanceof replicad.Drawing) return { drawing: result }
  const items = Array.isArray(result) ? (result as unknown[]) : [result]
  if (items.length === 0) throw new ModelError('main returned an empty list')
  const parts = items.map((item, index) => {
    const entry = (item instanceof replicad.Shape ? { shape: item } : item) as
      { shape?: unknown; name?: unknown; color?: unknown } | undefined
    if (!(entry?.shape instanceof replicad.Shape))
      throw new ModelError(
        `main returned ${Array.isArray(result) ? `as item ${index + 1} ` : ''}${kindOf(entry)}: ` +
          'a model returns a shape, a drawing, or a list of shapes or of { shape, name, color }',
      )
    return {
      shape: entry.shape as Shape,
      name: typeof entry.name === 'string' && entry.name ? entry.name : `Part ${index + 1}`,
      color: typeof entry.color === 'string' ? entry.color : undefined,
    }
  })
  return { parts: separated(parts) }
}

/**
 * Parts that share nothing: what two solids overlap goes to the later one, as OpenSCAD's parts do
 * (lib/cad/mesh/solid-parts.ts), so that each part is a closed solid of its own to print or mill.
 */
function separated(parts: NonNullable<Built['parts']>): NonNullable<Built['parts']> {
  const separate = parts.map((part, index) => {
    let { shape } = part
    for (const later of parts.slice(index + 1)) {
      if (!replicad.isShape3D(shape) || !replicad.isShape3D(later.shape)) continue
      const cut = shape.cut(later.shape)
      if (shape !== part.shape) shape.delete()
      shape = cut
    }
    return { ...part, shape }
  })
  // The shapes cut are deleted once no later cut needs them; what is answered is deleted after the answer.
  parts.forEach((part, index) => part.shape !== separate[index]!.shape && part.shape.delete())
  return separate
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  const name =
    typeof value === 'object' ? (value as { constructor?: { name?: unknown } }).constructor?.name : typeof value
  if (typeof name !== 'string' || !name) return 'an object'
  return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`
}

function meshed(parts: NonNullable<Built['parts']>, request: BuildRequest): Part[] {
  return parts.map(({ shape, name, color }) => {
    const mesh = shape.mesh({ tolerance: request.tolerance, angularTolerance: request.angularTolerance })
    return {
      name,
      color,
      positions: Float32Array.from(mesh.vertices),
      indices: Uint32Array.from(mesh.triangles),
      volume: replicad.isShape3D(shape) ? replicad.measureVolume(shape) : 0,
    }
  })
}

function drawn(drawing: replicad.Drawing): Drawing2d {
  const paths = drawing.toSVGPaths() as unknown[]
  // A shape with holes is a list of paths; a drawing of one shape is that list alone.
  const svgPaths = paths.every((path) => typeof path === 'string')
    ? [paths]
    : paths.map((path) => (Array.isArray(path) ? path.map(String) : [String(path)]))
  const box = drawing.boundingBox
  const [[xMin, yMin], [xMax, yMax]] = box.bounds
  box.delete()
  return {
    svgPaths,
    boundingBox: [
      [xMin, yMin],
      [xMax, yMax],
    ],
  }
}

interface Reply {
  message: WireAnswer
  binaries: ArrayBufferView[]
}

/** One request, answered; whether the child ends after it (it said so in the answer). */
async function answer(request: BuildRequest): Promise<boolean> {
  const started = performance.now()
  const log = new BuildLog()
  const errors: string[] = []
  const evaluated: Evaluated = {}
  const failed: Reply = {
    message: { id: request.id, kind: request.kind, ok: false, log: [], buildMs: 0 },
    binaries: [],
  }
  let built: Built = {}
  let reply = failed
  let trapped = false
  current = log
  modelFile = /^[\w./-]{1,200}$/.test(request.file ?? '') ? request.file! : MODEL_FILE
  try {
    built = await run(request, log, evaluated)
    reply =
      request.kind === 'step'
        ? await stepReply(request, built, errors)
        : request.kind === 'parameters'
          ? { message: { ...failed.message, kind: 'parameters', ok: true }, binaries: [] }
          : buildReply(request, built)
  } catch (error) {
    const described = describe(error)
    trapped = described.trapped === true
    errors.push(
      trapped && nearMemoryLimit()
        ? errorLine(memoryError())
        : errorLine(described.text, described.line, described.column),
    )
  } finally {
    for (const part of built.parts ?? []) part.shape.delete()
  }
  // Promise jobs a model left run now, within its time limit, not during the next build.
  await new Promise((resolve) => setImmediate(resolve))
  current = undefined
  // OpenCascade's heap only grows (300 builds of a bracket with five holes leave 413 MB, collected or not): a fresh child frees it.
  const retiring = trapped || process.memoryUsage.rss() > RECYCLE_RSS_BYTES
  const message: WireAnswer = {
    ...reply.message,
    log: log.close(errors),
    ...asJson({ defaultParams: evaluated.defaultParams, parameters: evaluated.parameters }, errors),
    buildMs: Math.round(performance.now() - started),
    ...(retiring && { retiring }),
  }
  await send(message, reply.binaries)
  return retiring
}

function buildReply(request: BuildRequest, built: Built): Reply {
  const base = { id: request.id, kind: 'build' as const, ok: true, log: [] as string[], buildMs: 0 }
  if (built.drawing) return { message: { ...base, drawing: drawn(built.drawing) }, binaries: [] }
  const binaries: ArrayBufferView[] = []
  let offset = 0
  const place = (array: Float32Array | Uint32Array): BinaryRef => {
    binaries.push(array)
    const ref = { offset, length: array.length }
    offset += array.byteLength
    return ref
  }
  const parts = meshed(built.parts!, request).map((part) => ({
    ...part,
    positions: place(part.positions),
    indices: place(part.indices),
  }))
  return { message: { ...base, parts } satisfies BuildAnswerOf<BinaryRef, BinaryRef>, binaries }
}

async function stepReply(request: BuildRequest, built: Built, errors: string[]): Promise<Reply> {
  const base = { id: request.id, kind: 'step' as const, log: [] as string[], buildMs: 0 }
  if (!built.parts) {
    errors.push('ERROR: the model is a 2D drawing, which has no STEP')
    return { message: { ...base, ok: false }, binaries: [] }
  }
  const solids = built.parts.map(({ shape, name, color }) => {
    if (!replicad.isShape3D(shape)) throw new ModelError(`${name} is not a solid: STEP holds 3D shapes`)
    return { shape, name, color }
  })
  // The units every time: they are OpenCascade's global state, which a model's own export may have changed.
  const blob = replicad.exportSTEP(solids, { unit: 'MM', modelUnit: 'MM' })
  return { message: { ...base, ok: true, step: await blob.text() } satisfies StepAnswer, binaries: [] }
}

/** defaultParams and parameters through JSON, read now (a model's getters run within its own time limit). */
function asJson(values: Pick<Evaluated, 'defaultParams' | 'parameters'>, errors: string[]): Partial<Evaluated> {
  try {
    return JSON.parse(JSON.stringify(values)) as Partial<Evaluated>
  } catch (error) {
    errors.push(`ERROR: defaultParams or parameters are not JSON: ${describe(error).text}`)
    return {}
  }
}

// ---------------------------------------------------------------------------------------------
// Memory.

function status(field: string): number {
  const kB = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]
  return Number(kB ?? 0) * 1024
}

function dataLimit(): number {
  const limit = /^Max data size\s+(\d+|unlimited)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'))?.[1]
  return limit && limit !== 'unlimited' ? Number(limit) : Infinity
}

/** OpenCascade traps when memory cannot grow: did it stop short of RLIMIT_DATA? */
function nearMemoryLimit(): boolean {
  return status('VmData') + MEMORY_MARGIN_BYTES > dataLimit()
}

function memoryError(): string {
  const limit = Number(process.env.MEMORY_LIMIT_BYTES)
  return `the build needed more than its memory limit${limit ? ` of ${Math.round(limit / 1048576)} MB` : ''}`
}

// ---------------------------------------------------------------------------------------------
// The loop: a warm-up build, ready, then requests one at a time, and more warm-up builds while idle.

// Extrusion, fillet, boolean cuts and a fuse, meshed and measured: the OpenCascade code most models
// spend their time in. V8 runs WebAssembly first in its baseline tier and moves a function to the
// optimizing one only once it has run a while: a fresh child built the bracket demo in 550-790 ms,
// then 250, 180, ... and at full speed (~75 ms) only after ten builds; after ten of these, its first
// build took 110-175 ms (docs/performance.md). They are background work: each runs only once the
// child has had no request for a while and a whole core of the machine sat idle meanwhile.
const WARM_UP = `function main({ draw, drawCircle, makeCylinder }, { width }) {
  let part = draw().hLine(width).vLine(5).hLine(5 - width).vLine(25).hLine(-5).close().sketchOnPlane('XZ').extrude(-20)
    .fillet(4, (e) => e.inDirection('Y').containsPoint([5, 10, 5]))
  for (const x of [12, 24]) part = part.cut(drawCircle(2).sketchOnPlane('XY').extrude(15).translate([x, 10, -5]))
  return part.fuse(makeCylinder(3, 8, [width - 6, 10, 5]))
}`
const WARM_UP_BUILDS = 12
const IDLE_BEFORE_WARM_UP_MS = 1000

async function warmUpBuild(width: number): Promise<void> {
  const request: BuildRequest = {
    id: 0,
    kind: 'build',
    code: WARM_UP,
    values: { width },
    tolerance: 0.1,
    angularTolerance: 0.3,
  }
  current = new BuildLog()
  const { parts = [] } = await run(request, current, {})
  meshed(parts, request)
  for (const part of parts) part.shape.delete()
  current = undefined
}

// Also a test of the boot: a child whose OpenCascade cannot build after lockdown never says it is ready.
await warmUpBuild(40)

await send({
  kind: 'ready',
  bootMs: Math.round(performance.now() - booted),
  rssBytes: process.memoryUsage.rss(),
  dataBytes: status('VmData'),
})

let pending = ''
let queue = Promise.resolve()
/** Requests read and not yet answered: a warm-up build waits for none. */
let waiting = 0
let warmUpsLeft = WARM_UP_BUILDS - 1
let warmUpTimer: ReturnType<typeof setTimeout> | undefined
process.stdin.setEncoding('utf8')
process.stdin.on('data', (chunk: string) => {
  const lines = (pending + chunk).split('\n')
  pending = lines.pop()!
  waiting += lines.length
  if (lines.length > 0) clearTimeout(warmUpTimer)
  for (const line of lines) queue = queue.then(() => serve(line)).catch(fail)
})
process.stdin.on('end', () => void queue.then(() => process.exit(0)))
warmUpWhenIdle()

async function serve(line: string): Promise<void> {
  if (await answer(JSON.parse(line) as BuildRequest)) process.exit(0)
  waiting--
  warmUpWhenIdle()
}

/** The next warm-up build, once the child has had no request for a while and a core was idle. */
function warmUpWhenIdle(): void {
  clearTimeout(warmUpTimer)
  if (warmUpsLeft <= 0 || waiting > 0) return
  warmUpTimer = setTimeout(() => {
    if (waiting > 0 || warmUpsLeft <= 0) return
    if (!aCoreWasIdle()) return warmUpWhenIdle()
    queue = queue.then(() => warmUpBuild(30 + warmUpsLeft--)).then(warmUpWhenIdle, fail)
  }, IDLE_BEFORE_WARM_UP_MS)
}

/** The whole machine's idle and total CPU time so far, in ticks (/proc/stat is not per namespace). */
function cpuTimes(): { idle: number; total: number } {
  const ticks = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number)
  return { idle: ticks[3]! + ticks[4]!, total: ticks.reduce((sum, tick) => sum + tick, 0) }
}

let lastCpuTimes = cpuTimes()

/** Whether the machine had a core's worth of idle time since the last look: anyone's work goes first. */
function aCoreWasIdle(): boolean {
  const now = cpuTimes()
  const idleShare = (now.idle - lastCpuTimes.idle) / Math.max(1, now.total - lastCpuTimes.total)
  lastCpuTimes = now
  return idleShare * os.availableParallelism() >= 1
}

function fail(error: unknown): never {
  process.stderr.write(`the sandbox failed: ${String((error as Error)?.stack ?? error)}\n`)
  process.exit(1)
}
