import path from 'node:path'
import type { BuildInput, CadEngine, ExportInput, ModelSource, ParametersInput, PartsInput } from '@/lib/cad/engine'
import { withError } from '@/lib/cad/engine'
import { failedTaskLine, type RunOptions, WorkerPool } from '@/lib/cad/worker-pool'
import { env } from '@/lib/env'
import { processSingleton } from '@/lib/process-singleton'
import type { ReplicadJob, ReplicadJobResult } from '@/lib/cad/replicad/replicad-job'
import { errorLine } from '@/lib/cad/replicad/replicad-log'
import { lineNaming, ParameterProblem, readReplicadParameters } from '@/lib/cad/replicad/replicad-parameters'

/** The quality variables that are the engine's, not the model's: its mesh tolerances (cad-system.ts). */
const TOLERANCE = '$tolerance'
const ANGULAR_TOLERANCE = '$angularTolerance'

/** The build workers: each a worker thread with its own sandboxed process (replicad-worker.ts). */
export function replicadPool(): WorkerPool<ReplicadJob, ReplicadJobResult> {
  return processSingleton('replicadPool', () => {
    return new WorkerPool<ReplicadJob, ReplicadJobResult>({
      script: path.join(process.cwd(), 'lib/cad/replicad/replicad-worker.ts'),
      size: env.BUILD_WORKERS,
      backgroundSize: env.BUILD_WORKERS > 0 ? 1 : 0,
      maxHeapMb: 256,
      sharesMachine: true,
    })
  })
}

async function run(job: ReplicadJob, options: RunOptions): Promise<ReplicadJobResult> {
  try {
    return await replicadPool().run(job, options)
  } catch (error) {
    return { log: { message: '', error: failedTaskLine(error, options.signal) } }
  }
}

/** The main file's source and name; a model is one JavaScript file. */
function mainSource({ files, mainFile }: ModelSource): { code: string; file: string } {
  const main = files.find((file) => file.path === mainFile)
  return { code: main ? new TextDecoder().decode(main.data) : '', file: mainFile }
}

/** The definitions of a run's defaultParams and parameters, or the run's log with the line that says why there are none. */
function definitionsOf(result: ReplicadJobResult, { code, file }: { code: string; file: string }) {
  try {
    return { parameters: readReplicadParameters(result.defaultParams, result.parameters), log: result.log }
  } catch (error) {
    if (!(error instanceof ParameterProblem)) throw error
    const line = error.parameter === undefined ? undefined : lineNaming(code, error.parameter)
    return { log: withError(result.log, errorLine(error.message, file, line)) }
  }
}

/** A build or export of the model at the input's values, its mesh tolerances from the quality's overrides. */
function runModel(kind: 'build' | 'step', input: BuildInput): Promise<ReplicadJobResult> {
  const { [TOLERANCE]: tolerance, [ANGULAR_TOLERANCE]: angularTolerance, ...modelValues } = input.overrides
  return run(
    {
      kind,
      ...mainSource(input),
      values: { ...input.values, ...modelValues },
      tolerance: Number(tolerance ?? 0.1),
      angularTolerance: Number(angularTolerance ?? 15),
      memoryLimitBytes: input.memoryLimitBytes,
    },
    { timeLimitMs: input.timeLimitMs, ...input.scheduling },
  )
}

/** replicad as a CadEngine: OpenCascade's B-rep kernel, each model's code in a sandbox (docs/replicad-sandbox.md). */
export const replicadEngine: CadEngine = {
  async readParameters(input: ParametersInput) {
    const source = mainSource(input)
    const { timeLimitMs, memoryLimitBytes, scheduling } = input
    const result = await run(
      { kind: 'parameters', ...source, values: {}, tolerance: 0, angularTolerance: 0, memoryLimitBytes },
      { timeLimitMs, ...scheduling },
    )
    if (result.log.error.includes('ERROR:')) return { ok: false, parameters: [], log: result.log }
    const { parameters, log } = definitionsOf(result, source)
    return { ok: parameters !== undefined, parameters: parameters ?? [], log }
  },

  /** A model whose parameter definitions contradict themselves does not build either: its log says why, as the read's does. */
  async build(input: BuildInput) {
    const source = mainSource(input)
    const result = await runModel('build', input)
    if (!result.mesh) return { mesh: null, log: result.log }
    const { parameters, log } = definitionsOf(result, source)
    return { mesh: parameters ? result.mesh : null, log }
  },

  /** STEP (AP242, millimetres): a solid per part, named and coloured as the model gives them. */
  async exportModel(input: ExportInput) {
    if (input.type !== 'step')
      return {
        file: null,
        log: { message: '', error: `ERROR: a replicad model is written as step, not ${input.type}` },
      }
    const { step, log } = await runModel('step', input)
    return { file: step === undefined ? null : new TextEncoder().encode(step), log }
  },

  async closeParts({ union, timeLimitMs, scheduling }: PartsInput) {
    const result = await run({ kind: 'parts', union }, { timeLimitMs, ...scheduling })
    return { mesh: result.mesh ?? null, log: result.log, print: result.print }
  },
}
