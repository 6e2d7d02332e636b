// PrusaSlicer's command line slicing a print-ready 3MF with a flat config (profiles.ts), in a
// bubblewrap sandbox as the native OpenSCAD runs: no network, only its input (read-only) and an
// output folder, as nobody, with time, address space and file size limits. What a quote needs is
// read from the G-code it writes: the summary lines at its end, its layer changes and whether it
// prints support material. Relative imports: worker threads load it too.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { limitHit, type PauseSwitch, PRLIMIT, runSandbox, sandboxArgs } from '../sandbox/bubblewrap'

/** Where the sandbox sees the slicer, whichever folder it lives in outside. */
const SLICER = '/engine/prusa-slicer'
/** Most bytes of G-code a slice may write. */
const GCODE_LIMIT_BYTES = 1024 * 1024 * 1024
/** The slice folders of this machine begin with it. */
export const SLICE_FOLDER_PREFIX = 'paraform-slice-'

export interface SliceInput {
  /** The slicer binary (PRUSA_SLICER). */
  binary: string
  /** The print-ready 3MF (lib/cad/mesh/write-3mf.ts). */
  model: Uint8Array
  /** The flat config (profiles.ts flatConfig). */
  config: string
  timeLimitMs: number
  memoryLimitBytes: number
  signal?: AbortSignal
  /** How the slice's folder in the temporary directory begins, so that whoever started it can remove it (slicer.ts). */
  folderPrefix?: string
}

/** What the slicer says of a print. */
export interface SliceFigures {
  printTimeSeconds: number
  /** Per extruder that prints, in extruder order. */
  materials: { extruder: number; lengthMm: number; weightG: number }[]
  supports: boolean
  layers: number
}

export type SliceResult = { figures: SliceFigures; log: string } | { figures: null; error: string; log: string }

/** One slice in a sandbox of its own, standing still while `pauses` says so; every failure is a result, a cancellation rejects. */
export async function slice(input: SliceInput, pauses?: PauseSwitch): Promise<SliceResult> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), input.folderPrefix ?? SLICE_FOLDER_PREFIX))
  // The sandbox's user may pass through to the run's folders, not list what else is there.
  fs.chmodSync(root, 0o711)
  try {
    return await sliceIn(root, input, pauses)
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

async function sliceIn(
  root: string,
  { binary, model, config, timeLimitMs, memoryLimitBytes, signal }: SliceInput,
  pauses: PauseSwitch | undefined,
) {
  const input = path.join(root, 'in')
  const out = path.join(root, 'out')
  fs.mkdirSync(input, { mode: 0o755 })
  fs.writeFileSync(path.join(input, 'model.3mf'), model, { mode: 0o644 })
  fs.writeFileSync(path.join(input, 'config.ini'), config, { mode: 0o644 })
  fs.mkdirSync(out)
  fs.chmodSync(out, 0o777)
  const lines: string[] = []
  const ended = await runSandbox(
    [
      ...sandboxArgs([
        { source: binary, target: SLICER },
        { source: input, target: '/in' },
        { source: out, target: '/out', writable: true },
      ]),
      ...['--chdir', '/tmp', '--'],
      ...[PRLIMIT, `--as=${memoryLimitBytes}`, `--cpu=${Math.ceil(timeLimitMs / 1000) + 1}`],
      ...[`--fsize=${GCODE_LIMIT_BYTES}`, '--core=0', '--'],
      ...[SLICER, '--loglevel', '1', '--export-gcode', '--load', '/in/config.ini'],
      ...['--output', '/out/model.gcode', '/in/model.3mf'],
    ],
    // Its trace of start-up and its progress lines say nothing a designer can act on.
    { timeLimitMs, signal, pauses, print: (line) => /\[trace\]|^\d+ => /.test(line) || lines.push(line) },
  )
  const log = lines.join('\n')
  if (ended.cancelled) throw signal!.reason
  const failed = (error: string): SliceResult => ({ figures: null, error, log })
  const hit = limitHit(ended)
  if (hit === 'time') return failed(`the slicer was stopped after its time limit of ${timeLimitMs / 1000} s`)
  if (hit === 'output') return failed(`the G-code was larger than ${GCODE_LIMIT_BYTES / 1048576} MB`)
  if (/std::bad_alloc/.test(log)) return failed(`the slicer needed more than ${memoryLimitBytes / 1048576} MB`)
  // It aborts on what it cannot slice (a model larger than the bed), saying why first.
  const said = /^\s*what\(\):\s*(.+)$/m.exec(log)?.[1]
  if (said) return failed(said)
  if (hit === 'signal') return failed(`the slicer stopped (${ended.signal ?? `signal ${ended.code! - 128}`})`)
  const gcode = path.join(out, 'model.gcode')
  if (ended.code !== 0 || !fs.existsSync(gcode)) return failed(slicerError(log))
  return { figures: readGcode(fs.readFileSync(gcode, 'latin1')), log }
}

/** The slicer's own words for why it failed: its last error line, without its log's prefix. */
function slicerError(log: string): string {
  const said = log
    .split('\n')
    .map((line) => line.replace(/^\[[^\]]*\] \[[^\]]*\] \[\w+\]\s*/, '').trim())
    .filter((line) => line !== '')
  return said.at(-1) ?? 'the slicer failed and said nothing'
}

/** `1d 2h 3m 4s` (any of them left out) in seconds. */
function durationSeconds(text: string): number {
  const units: Record<string, number> = { d: 86400, h: 3600, m: 60, s: 1 }
  let seconds = 0
  for (const [, amount, unit] of text.matchAll(/(\d+)([dhms])/g)) seconds += Number(amount) * units[unit!]!
  return seconds
}

/** The figures of a G-code file PrusaSlicer wrote. */
export function readGcode(gcode: string): SliceFigures {
  const summary = (name: string) => {
    const escaped = name.replace(/[[\]()]/g, '\\$&')
    return new RegExp(`^; ${escaped} = (.*)$`, 'm').exec(gcode)?.[1]
  }
  const numbers = (name: string) => (summary(name) ?? '').split(',').map(Number)
  const time = summary('estimated printing time (normal mode)')
  if (time === undefined) throw new Error('the G-code has no estimated printing time: not written by PrusaSlicer')
  const lengths = numbers('filament used [mm]')
  const weights = numbers('filament used [g]')
  return {
    printTimeSeconds: durationSeconds(time),
    materials: lengths
      .map((lengthMm, k) => ({ extruder: k + 1, lengthMm, weightG: weights[k] ?? 0 }))
      .filter(({ lengthMm }) => lengthMm > 0),
    supports: /^;TYPE:Support material/m.test(gcode),
    layers: gcode.match(/^;LAYER_CHANGE$/gm)?.length ?? 0,
  }
}
