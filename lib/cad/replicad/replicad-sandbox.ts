// Designers' replicad models, built in a long-lived child process inside a bubblewrap sandbox
// (docs/replicad-sandbox.md): the child (sandbox-process.ts) boots OpenCascade once and builds one
// request at a time, each model in an SES Compartment of its own. This side starts it, sends it
// requests, enforces time limits by killing it, and starts a fresh one whenever it ends.
// Relative imports: worker threads load it.
import type { ChildProcessByStdio } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type {
  BinaryRef,
  BuildAnswerOf,
  BuildRequest,
  ChildMessage,
  ParametersAnswer,
  PartOf,
  Ready,
  StepAnswer,
  WireAnswer,
} from './protocol'
import { BWRAP, killSandbox, type Mount, PRLIMIT, sandboxArgs, spawnSandbox } from '../../sandbox/bubblewrap'

export type { Drawing2d, ParameterValue, ParametersAnswer, StepAnswer } from './protocol'

/** A model to build: its source, its parameters' values and the mesh's fineness. */
export type BuildInput = Omit<BuildRequest, 'id' | 'kind'>
export type ParametersInput = Pick<BuildInput, 'code' | 'file'>
export type Part = PartOf<Float32Array, Uint32Array>
export type BuildAnswer = BuildAnswerOf<Float32Array, Uint32Array>

export interface SandboxOptions {
  /** Memory a build may use beyond what Node and OpenCascade reserve at boot; 2 GiB unless given. */
  memoryLimitBytes?: number
  /** The child is replaced after an answer that leaves it above this resident memory; 1 GiB unless given. */
  recycleRssBytes?: number
  /** Longest a child may take to boot; 60 s unless given. */
  bootTimeLimitMs?: number
}

export interface ReplicadSandbox {
  /** The model built and meshed: its parts, or its drawing when it is 2D. A failed build is an answer, a cancellation rejects. */
  build(input: BuildInput, timeLimitMs: number, signal?: AbortSignal): Promise<BuildAnswer>
  /** The model built and written as AP242 STEP. */
  step(input: BuildInput, timeLimitMs: number, signal?: AbortSignal): Promise<StepAnswer>
  /** The model evaluated, its main not run: its defaultParams and parameters as it defines them. */
  parameters(input: ParametersInput, timeLimitMs: number, signal?: AbortSignal): Promise<ParametersAnswer>
  /** Children started so far: one more after each that died, was stopped, or was replaced for its memory. */
  readonly starts: number
  /** The last child's boot as it reported it. */
  readonly lastBoot: Ready | undefined
  /** Ends the child. */
  close(): Promise<void>
}

const SCRIPT = fileURLToPath(new URL('./sandbox-process.ts', import.meta.url))
/** What the child imports; their own dependencies come along. */
const PACKAGES = ['replicad', 'replicad-opencascadejs', 'ses']
/** Where the sandbox sees its files. */
const ROOT = '/sandbox'
/**
 * RLIMIT_DATA counts reserved writable memory, not used memory: Node reserves 512 MB of code space
 * at start, and OpenCascade's code and heap 300 MB more (VmData 880 MB with 190 MB resident at ready,
 * measured on Node 26). A build's own memory limit comes on top of this.
 */
const RESERVED_DATA_BYTES = 1024 * 1024 * 1024
const STDERR_LINES = 40
/** V8's default is 13,000,000 (roughly bytes of WebAssembly run before a function tiers up). */
export const WASM_TIERING_BUDGET = 300_000

/** Starts a sandbox and waits for its first child to boot; a child that cannot start rejects. */
export async function startSandbox(options: SandboxOptions = {}): Promise<ReplicadSandbox> {
  if (!fs.existsSync(BWRAP))
    throw new Error(
      `replicad models build in a bubblewrap sandbox, and ${BWRAP} is missing (apt-get install bubblewrap)`,
    )
  const sandbox = new Sandbox(options)
  try {
    await sandbox.child()
  } catch (error) {
    await sandbox.close()
    throw error
  }
  return sandbox
}

/** A child process: the answers it owes, the end of its stderr, and its end. */
interface Child {
  process: ChildProcessByStdio<Writable, Readable, Readable>
  answers: Map<number, (answer: Received) => void>
  stderr: string[]
  ended: Promise<void>
}

type Received = WireAnswer & { binary?: ArrayBuffer }
type Outcome = { answer: Received } | { timedOut: true } | { aborted: true } | { died: true }

class Sandbox implements ReplicadSandbox {
  starts = 0
  lastBoot: Ready | undefined
  /** The newest child, booting or booted. */
  private newest: Child | undefined
  /** The booted child that takes requests, or the boot of the next one. */
  private current: Promise<Child> | undefined
  private queue: Promise<unknown> = Promise.resolve()
  private nextId = 0
  private closed = false
  private readonly options: SandboxOptions
  private readonly memoryLimitBytes: number
  private readonly mounts: Mount[]

  constructor(options: SandboxOptions) {
    this.options = options
    this.memoryLimitBytes = options.memoryLimitBytes ?? 2 * 1024 * 1024 * 1024
    this.mounts = sandboxFiles(process.getuid?.() === 0)
  }

  build(input: BuildInput, timeLimitMs: number, signal?: AbortSignal): Promise<BuildAnswer> {
    return this.request('build', input, timeLimitMs, signal).then(decodeBuild)
  }

  step(input: BuildInput, timeLimitMs: number, signal?: AbortSignal): Promise<StepAnswer> {
    return this.request('step', input, timeLimitMs, signal).then(({ binary: _, ...answer }) => answer as StepAnswer)
  }

  parameters(input: ParametersInput, timeLimitMs: number, signal?: AbortSignal): Promise<ParametersAnswer> {
    const { code, file } = input
    return this.request(
      'parameters',
      { code, file, values: {}, tolerance: 0, angularTolerance: 0 },
      timeLimitMs,
      signal,
    ).then(({ binary: _, ...answer }) => answer as ParametersAnswer)
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.newest) {
      kill(this.newest)
      await this.newest.ended
    }
  }

  /** The booted child, or a new one once it boots. */
  child(): Promise<Child> {
    if (this.closed) return Promise.reject(new Error('the sandbox is closed'))
    if (!this.current) {
      const starting = this.spawn()
      this.current = starting
      // A child that could not boot is forgotten, so that the next request tries again.
      starting.catch(() => {
        if (this.current === starting) this.current = undefined
      })
    }
    return this.current
  }

  /** One request at a time: the child builds one model at a time, and a time limit counts its build alone. */
  private request(kind: BuildRequest['kind'], input: BuildInput, timeLimitMs: number, signal?: AbortSignal) {
    const run = this.queue.then(() => this.send(kind, input, timeLimitMs, signal))
    this.queue = run.catch(() => undefined)
    return run
  }

  private async send(
    kind: BuildRequest['kind'],
    input: BuildInput,
    timeLimitMs: number,
    signal?: AbortSignal,
  ): Promise<Received> {
    signal?.throwIfAborted()
    const id = ++this.nextId
    const failed = (line: string): Received => ({ id, kind, ok: false, log: [line], buildMs: 0 })
    let child: Child
    try {
      child = await this.child()
      // One that ended while idle has a fresh one booting behind it (replace).
      if (child.process.exitCode !== null || child.process.signalCode !== null) {
        await child.ended
        child = await this.child()
      }
    } catch (error) {
      return failed(`ERROR: the sandbox did not start: ${(error as Error).message}`)
    }
    const { code, file, values, tolerance, angularTolerance } = input
    const request: BuildRequest = { id, kind, code, file, values, tolerance, angularTolerance }
    child.process.stdin.write(`${JSON.stringify(request)}\n`)
    let timer: ReturnType<typeof setTimeout> | undefined
    let abort = () => {}
    const outcome = await new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ timedOut: true }), timeLimitMs)
      abort = () => resolve({ aborted: true })
      signal?.addEventListener('abort', abort, { once: true })
      child.answers.set(id, (answer) => resolve({ answer }))
      void child.ended.then(() => resolve({ died: true }))
    })
    clearTimeout(timer)
    signal?.removeEventListener('abort', abort)
    child.answers.delete(id)
    if ('answer' in outcome) return outcome.answer
    // Stopped or dead: a fresh child replaces it (spawn), and the next request builds there.
    kill(child)
    await child.ended
    if (this.closed) throw new Error('the sandbox was closed during the build')
    if ('aborted' in outcome) throw signal!.reason
    if ('timedOut' in outcome)
      return failed(`ERROR: the build was stopped after its time limit of ${timeLimitMs / 1000} s`)
    return failed(this.deathOf(child))
  }

  /** Why a child ended during a build, in the designer's words. */
  private deathOf(child: Child): string {
    const { exitCode, signalCode } = child.process
    if (/out of memory|allocation failed/i.test(child.stderr.join('\n')))
      return `ERROR: the build needed more than its memory limit of ${Math.round(this.memoryLimitBytes / 1048576)} MB`
    // bubblewrap ends with 128 + the signal that ended the child.
    const signal = signalCode ?? (exitCode !== null && exitCode > 128 ? `signal ${exitCode - 128}` : undefined)
    if (signal) return `ERROR: the CAD engine stopped (${signal})`
    const last = child.stderr.at(-1)
    return `ERROR: the CAD engine stopped unexpectedly (exit code ${exitCode})${last ? `: ${last}` : ''}`
  }

  private async spawn(): Promise<Child> {
    const started = launch(this.mounts, this.memoryLimitBytes, this.options.recycleRssBytes ?? 1024 * 1024 * 1024)
    this.starts++
    const child: Child = { process: started, answers: new Map(), stderr: [], ended: Promise.resolve() }
    this.newest = child
    let ready: (message: Ready) => void = () => {}
    const booted = new Promise<Ready>((resolve) => (ready = resolve))
    started.stdout.on(
      'data',
      frameReader((message, binary) => {
        if (message.kind === 'ready') return ready(message)
        if (message.retiring) this.replace(child)
        child.answers.get(message.id)?.({ ...message, binary })
      }),
    )
    let pending = ''
    started.stderr.setEncoding('utf8')
    started.stderr.on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n')
      pending = lines.pop()!
      child.stderr.push(...lines.filter(Boolean))
      child.stderr.splice(0, child.stderr.length - STDERR_LINES)
    })
    // A child gone before it read its request must not take the parent down with EPIPE.
    started.stdin.on('error', () => {})
    child.ended = new Promise((resolve) => {
      started.on('error', (error) => {
        child.stderr.push(`bubblewrap did not start: ${error.message}`)
        resolve()
      })
      started.on('close', () => resolve())
    })
    const bootLimitMs = this.options.bootTimeLimitMs ?? 60_000
    let timer: ReturnType<typeof setTimeout> | undefined
    const boot = await Promise.race([
      booted,
      child.ended.then(() => undefined),
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), bootLimitMs))),
    ])
    clearTimeout(timer)
    if (!boot) {
      kill(child)
      await child.ended
      // V8's native stack trace says nothing a reader needs.
      const why = child.stderr.filter((line) => !/^\s*\d+: 0x|^[#\s]*$/.test(line)).slice(-4)
      throw new Error(why.length ? why.join(' / ') : `it did not boot within ${bootLimitMs / 1000} s`)
    }
    this.lastBoot = boot
    void child.ended.then(() => this.replace(child))
    return child
  }

  /** A fresh child, booting at once, for one that ended (stopped or dead) or that said it will. */
  private replace(child: Child): void {
    if (this.closed || this.newest !== child) return
    this.current = undefined
    this.child().catch(() => {})
  }
}

/** The child's process group, killed: bubblewrap, and through --die-with-parent the node inside it. */
function kill(child: Child): void {
  killSandbox(child.process.pid)
}

/** bubblewrap around `node sandbox-process.ts`, with prlimit's memory limit inside. */
function launch(mounts: Mount[], memoryLimitBytes: number, recycleRssBytes: number) {
  const node = `${ROOT}/node/${path.basename(process.execPath)}`
  const heapMb = Math.max(256, Math.round(memoryLimitBytes / 1048576))
  const sandbox = [
    ...sandboxArgs(mounts),
    '--chdir',
    ROOT,
    ...['--setenv', 'MEMORY_LIMIT_BYTES', String(memoryLimitBytes)],
    ...['--setenv', 'RECYCLE_RSS_BYTES', String(recycleRssBytes)],
    '--',
    ...[PRLIMIT, `--data=${memoryLimitBytes + RESERVED_DATA_BYTES}`, '--core=0', '--'],
    node,
    `--max-old-space-size=${heapMb}`,
    // OpenCascade's hot functions reach V8's optimizing tier after fewer runs (sandbox-process.ts, WARM_UP).
    `--wasm-tiering-budget=${WASM_TIERING_BUDGET}`,
    '--no-addons',
    ...(process.features.typescript ? [] : ['--experimental-strip-types']),
    `${ROOT}/${path.basename(SCRIPT)}`,
  ]
  return spawnSandbox(sandbox)
}

/** Reads the child's frames (protocol.ts) as they arrive, however its stdout splits them. */
function frameReader(deliver: (message: ChildMessage, binary: ArrayBuffer) => void) {
  let chunks: Buffer[] = []
  let length = 0
  /** The frame's size once its first 4 bytes arrived; chunks are joined only when the whole frame is there. */
  let size: number | undefined
  const joined = () => {
    if (chunks.length > 1) chunks = [Buffer.concat(chunks, length)]
    return chunks[0]!
  }
  return (chunk: Buffer) => {
    chunks.push(chunk)
    length += chunk.length
    for (;;) {
      if (size === undefined) {
        if (length < 4) return
        size = joined().readUInt32LE(0)
      }
      if (length < 4 + size) return
      const frame = joined()
      const jsonLength = frame.readUInt32LE(4)
      const binaryStart = 8 + jsonLength + ((4 - (jsonLength % 4)) % 4)
      const message = JSON.parse(frame.toString('utf8', 8, 8 + jsonLength)) as ChildMessage
      // The binary section in an ArrayBuffer of its own, aligned for Float32Array and Uint32Array.
      const binary = (frame.buffer as ArrayBuffer).slice(frame.byteOffset + binaryStart, frame.byteOffset + 4 + size)
      const rest = frame.subarray(4 + size)
      chunks = rest.length ? [rest] : []
      length = rest.length
      size = undefined
      deliver(message, binary)
    }
  }
}

/** A build's answer with its parts' arrays read out of the frame's binary section, each in a buffer of its own. */
function decodeBuild(answer: Received): BuildAnswer {
  const { binary, ...message } = answer as BuildAnswerOf<BinaryRef, BinaryRef> & { binary?: ArrayBuffer }
  const read = <T>(ref: BinaryRef, Type: { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number }): T =>
    new Type(binary!.slice(ref.offset, ref.offset + ref.length * Type.BYTES_PER_ELEMENT))
  if (!message.parts) return message as BuildAnswer
  return {
    ...message,
    parts: message.parts.map((part) => ({
      ...part,
      positions: read(part.positions, Float32Array),
      indices: read(part.indices, Uint32Array),
    })),
  }
}

// ---------------------------------------------------------------------------------------------
// The files the sandbox sees: node, the packages and the script, read-only.

/**
 * Mounts for node's folder, each package the child imports with its dependencies, and the
 * script. When the sandbox runs as `nobody`, what nobody may not read (node under root's home,
 * say) is staged in the temporary directory (stagedCopy).
 */
function sandboxFiles(asRoot: boolean): Mount[] {
  const wanted: Mount[] = [
    { source: path.dirname(fs.realpathSync(process.execPath)), target: `${ROOT}/node` },
    ...[...packageFolders(path.dirname(SCRIPT))].map(([name, source]) => ({
      source,
      target: `${ROOT}/node_modules/${name}`,
    })),
    { source: SCRIPT, target: `${ROOT}/${path.basename(SCRIPT)}` },
  ]
  if (!asRoot) return wanted
  return wanted.map((mount) =>
    readableByOthers(mount.source) ? mount : { ...mount, source: stagedCopy(mount.source) },
  )
}

/**
 * A copy of `source` that `nobody` can read: hard links (copies across file systems) in a folder
 * of the temporary directory named by what it holds, so that every worker and server process
 * shares one and a changed source gets a new one. It is kept, as a cache; only a folder this
 * user owns and nobody else may write is used.
 */
function stagedCopy(source: string): string {
  const listing = createHash('sha256').update(`${source}\n`)
  for (const file of filesUnder(source)) {
    const { size, mtimeMs } = fs.statSync(file)
    listing.update(`${path.relative(source, file)}\0${size}\0${mtimeMs}\n`)
  }
  const folder = path.join(os.tmpdir(), `paraform-replicad-${listing.digest('hex').slice(0, 20)}`)
  const copy = path.join(folder, path.basename(source))
  if (!ownFolder(folder)) {
    const building = fs.mkdtempSync(`${folder}-`)
    stage(source, path.join(building, path.basename(source)))
    fs.chmodSync(building, 0o755)
    try {
      fs.renameSync(building, folder)
    } catch {
      // another worker staged it first
      fs.rmSync(building, { recursive: true, force: true })
    }
    if (!ownFolder(folder)) throw new Error(`${folder} is not this user's own: the sandbox will not mount it`)
  }
  return copy
}

function ownFolder(folder: string): boolean {
  try {
    const stat = fs.lstatSync(folder)
    return stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0
  } catch {
    return false
  }
}

function filesUnder(source: string): string[] {
  if (!fs.statSync(source).isDirectory()) return [source]
  return fs.readdirSync(source).flatMap((entry) => filesUnder(path.join(source, entry)))
}

/** The packages and every package they depend on (types aside), by name, from the node_modules above `from`. */
function packageFolders(from: string): Map<string, string> {
  const found = new Map<string, string>()
  const visit = (name: string, parent: string) => {
    const folder = findPackage(name, parent)
    if ([...found.values()].some((mounted) => folder === mounted || folder.startsWith(mounted + path.sep))) return
    if (found.has(name)) throw new Error(`the sandbox cannot mount two versions of ${name}`)
    found.set(name, folder)
    const { dependencies = {} } = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>
    }
    for (const dependency of Object.keys(dependencies)) if (!dependency.startsWith('@types/')) visit(dependency, folder)
  }
  for (const name of PACKAGES) visit(name, from)
  return found
}

function findPackage(name: string, from: string): string {
  for (let folder = from; ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, 'node_modules', name)
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate)
    if (folder === path.dirname(folder))
      throw new Error(`the replicad sandbox needs the package ${name}, and it is not installed`)
  }
}

/** Whether `nobody` can reach and read a path: every folder above it searchable by others, and itself readable. */
function readableByOthers(file: string): boolean {
  for (let folder = path.dirname(file); ; folder = path.dirname(folder)) {
    if (!(fs.statSync(folder).mode & 0o001)) return false
    if (folder === path.dirname(folder)) break
  }
  const { mode } = fs.statSync(file)
  return (mode & 0o004) !== 0 && (!fs.statSync(file).isDirectory() || (mode & 0o001) !== 0)
}

/** A tree of hard links to `source` (copies where linking fails or others could not read the file). */
function stage(source: string, target: string): void {
  const stat = fs.statSync(source)
  if (stat.isDirectory()) {
    fs.mkdirSync(target, { mode: 0o755 })
    fs.chmodSync(target, 0o755)
    for (const entry of fs.readdirSync(source)) stage(path.join(source, entry), path.join(target, entry))
    return
  }
  if (stat.mode & 0o004) {
    try {
      fs.linkSync(source, target)
      return
    } catch {
      // another file system: copied below
    }
  }
  fs.copyFileSync(source, target)
  fs.chmodSync(target, stat.mode & 0o111 ? 0o755 : 0o644)
}
