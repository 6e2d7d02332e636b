// A native OpenSCAD as a child process per run, inside a bubblewrap sandbox (docs/native-engine.md):
// its own user, mount, PID, network and IPC namespaces, only /usr and the run's own folders
// mounted, as an unprivileged user, with CPU time, address space and file size limits, and its
// process group killed on time-out or cancellation. Relative imports: worker threads load it too.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { ModelFile } from '../engine'
import { withError } from '../engine'
import { OpenscadLog } from './openscad-log'
import { INPUT_FILE, type Run, type RunFormat } from './openscad-job'
import { BWRAP, limitHit, PRLIMIT, runSandbox, sandboxArgs } from '../../sandbox/bubblewrap'

/** A native OpenSCAD this machine has, and what its command line takes. */
export interface NativeBinary {
  file: string
  /** As OpenSCAD names itself, e.g. `2021.01`. */
  version: string
  /** `--backend=manifold` (2024 and later): the fast geometry kernel. */
  hasManifold: boolean
  /** Its OFF holds each face's colour (2024 and later, which also have Manifold): parts by colour. */
  writesColours: boolean
  /** `--enable=textmetrics`: fontmetrics() for the font probe. */
  hasTextmetrics: boolean
}

/** Where the sandbox sees the binary, whichever folder it lives in outside. */
const ENGINE = '/engine/openscad'
/** Most bytes a run may write to a file (the output model) unless told otherwise. */
export const OUTPUT_LIMIT_BYTES = 512 * 1024 * 1024

/**
 * The binary's version and options, or an error of one line naming it: missing, not
 * executable, not OpenSCAD, or no sandbox to run it in.
 */
export function probeBinary(file: string): NativeBinary {
  const say = (why: string) => new Error(`OPENSCAD_BINARY=${file}: ${why}`)
  try {
    fs.accessSync(file, fs.constants.X_OK)
  } catch {
    throw say(fs.existsSync(file) ? 'not executable' : 'no such file')
  }
  if (!fs.existsSync(BWRAP))
    throw say(`the native engine runs in a bubblewrap sandbox, and ${BWRAP} is missing (apt-get install bubblewrap)`)
  // OpenSCAD prints its version and help on stderr.
  const run = (args: string[]) => {
    const { stdout = '', stderr = '' } = spawnSync(file, args, { encoding: 'utf8', timeout: 10_000 })
    return stdout + stderr
  }
  const version = /^OpenSCAD version (\S+)/m.exec(run(['--version']))?.[1]
  if (!version) throw say('not OpenSCAD (`--version` does not say "OpenSCAD version ...")')
  const help = run(['--help'])
  const hasManifold = help.includes('--backend')
  return {
    file: fs.realpathSync(file),
    version,
    hasManifold,
    writesColours: hasManifold,
    hasTextmetrics: help.includes('--enable'),
  }
}

export interface NativeRun {
  files: ModelFile[]
  mainFile: string
  libraries: ModelFile[]
  fonts: ModelFile[]
  /** `name=value` assignments, passed as -D. */
  defines: string[]
  format: RunFormat
  /** Source to run instead of the main file, written beside it (a part's colour alone). */
  input?: string
  timeLimitMs: number
  memoryLimitBytes: number
  /** Most bytes of the output model; OUTPUT_LIMIT_BYTES unless given. */
  outputLimitBytes?: number
  /** Cores the run may use: OpenSCAD's threads (TBB) take only these. */
  cpus?: number[]
  signal?: AbortSignal
  /** How the run's folder in the temporary directory begins, so that whoever started it can remove it (native-engine.ts). */
  folderPrefix?: string
}

/** The run folders of this machine's native builds begin with it. */
export const RUN_FOLDER_PREFIX = 'paraform-build-'

// Only the run's own folders for fonts: fontconfig finds no font of the host it was not given.
const FONTS_CONF = `<?xml version="1.0"?><fontconfig><dir>/fonts</dir><dir>/model</dir><cachedir>/tmp/fontconfig</cachedir>
<match target="pattern"><edit name="family" mode="append_last"><string>Liberation Sans</string><string>DejaVu Sans</string></edit></match></fontconfig>`

/** One OpenSCAD run of the model in a sandbox of its own; every failure is a result, a cancellation rejects. */
export async function runNative(binary: NativeBinary, run: NativeRun): Promise<Run> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), run.folderPrefix ?? RUN_FOLDER_PREFIX))
  // The sandbox's user may pass through to the run's folders, not list what else is there.
  fs.chmodSync(root, 0o711)
  try {
    return await runIn(root, binary, run)
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

async function runIn(root: string, binary: NativeBinary, run: NativeRun): Promise<Run> {
  const log = new OpenscadLog()
  const encode = (text: string) => new TextEncoder().encode(text)
  // A part's colour alone runs from beside the main file, so that its relative includes resolve.
  const runFile = run.input === undefined ? run.mainFile : path.posix.join(path.posix.dirname(run.mainFile), INPUT_FILE)
  try {
    place(path.join(root, 'model'), [
      ...run.files,
      ...(run.input === undefined ? [] : [{ path: runFile, data: encode(run.input) }]),
    ])
    place(path.join(root, 'libraries'), run.libraries)
    place(path.join(root, 'fonts'), [...run.fonts, { path: 'fonts.conf', data: encode(FONTS_CONF) }])
  } catch (error) {
    return {
      exitCode: 1,
      log: withError(log.toLog(), `ERROR: could not place the model's files: ${(error as Error).message}`),
    }
  }
  const out = path.join(root, 'out')
  fs.mkdirSync(out)
  fs.chmodSync(out, 0o777)
  const main = `/model/${runFile}`
  const outputFile = `/out/model.${run.format}`
  const openscad = [
    main,
    '-o',
    outputFile,
    `--export-format=${run.format}`,
    ...(binary.hasManifold ? ['--backend=manifold'] : []),
    ...(binary.hasTextmetrics ? ['--enable=textmetrics'] : []),
    ...(run.input === undefined ? run.defines : []).flatMap((define) => ['-D', define]),
  ]
  const cpuSeconds = Math.ceil(run.timeLimitMs / 1000) + 1
  const outputLimitBytes = run.outputLimitBytes ?? OUTPUT_LIMIT_BYTES
  const limits = [
    PRLIMIT,
    `--as=${run.memoryLimitBytes}`,
    `--cpu=${cpuSeconds}`,
    `--fsize=${outputLimitBytes}`,
    `--core=0`,
    '--',
  ]
  const pinned = run.cpus?.length ? ['/usr/bin/taskset', '--cpu-list', run.cpus.join(',')] : []
  const sandbox = [
    ...sandboxArgs([
      { source: binary.file, target: ENGINE },
      { source: path.join(root, 'model'), target: '/model' },
      { source: path.join(root, 'libraries'), target: '/libraries' },
      { source: path.join(root, 'fonts'), target: '/fonts' },
      { source: out, target: '/out', writable: true },
    ]),
    // The host's own OpenSCAD libraries are not the configurator's: only installed ones are found.
    ...(fs.existsSync('/usr/share/openscad/libraries') ? ['--tmpfs', '/usr/share/openscad/libraries'] : []),
    ...['--chdir', path.posix.dirname(main), '--setenv', 'OPENSCADPATH', '/libraries'],
    ...['--setenv', 'FONTCONFIG_FILE', '/fonts/fonts.conf', '--'],
    ...pinned,
    ...limits,
    ENGINE,
    ...openscad,
  ]
  const ended = await runSandbox(sandbox, {
    timeLimitMs: run.timeLimitMs,
    signal: run.signal,
    print: (line) => log.add(line.startsWith('bwrap:') ? `ERROR: the sandbox: ${line}` : line),
  })
  const printed = log.toLog()
  if (ended.cancelled) throw run.signal!.reason
  const hit = limitHit(ended)
  if (hit === 'time')
    return {
      exitCode: 1,
      log: withError(printed, `ERROR: the build was stopped after its time limit of ${run.timeLimitMs / 1000} s`),
    }
  if (hit === 'output')
    return {
      exitCode: 1,
      log: withError(
        printed,
        `ERROR: the model's output was larger than its limit of ${Math.round(outputLimitBytes / 1048576)} MB`,
      ),
    }
  if (ended.code !== 0 && /std::bad_alloc/.test(printed.message))
    return {
      exitCode: 1,
      log: withError(
        printed,
        `ERROR: the build needed more than its memory limit of ${Math.round(run.memoryLimitBytes / 1048576)} MB`,
      ),
    }
  if (hit === 'signal')
    return {
      exitCode: 1,
      log: withError(printed, `ERROR: the CAD engine stopped (${ended.signal ?? `signal ${ended.code! - 128}`})`),
    }
  if (ended.code !== 0) return { exitCode: ended.code ?? 1, log: printed }
  const written = path.join(out, `model.${run.format}`)
  return {
    exitCode: 0,
    log: printed,
    output: fs.existsSync(written) ? new Uint8Array(fs.readFileSync(written)) : undefined,
  }
}

/** Files under `folder` by their relative paths; a path that leaves it (absolute, `..`) is refused. */
function place(folder: string, files: ModelFile[]): void {
  fs.mkdirSync(folder, { recursive: true, mode: 0o755 })
  for (const file of files) {
    const target = path.resolve(folder, file.path)
    if (path.isAbsolute(file.path) || !target.startsWith(folder + path.sep))
      throw new Error(`${file.path} is not a path inside the model`)
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 })
    fs.writeFileSync(target, file.data, { mode: 0o644 })
  }
}
