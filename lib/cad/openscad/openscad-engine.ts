import path from 'node:path'
import type { BuildInput, CadEngine, EngineLimits, EngineLog, ModelSource, ParameterValue } from '@/lib/cad/engine'
import type { OpenscadJob, OpenscadJobResult } from '@/lib/cad/openscad/openscad-job'
import { parseOpenscadParameters } from '@/lib/cad/openscad/openscad-parameters'
import { TimeLimitError, WorkerPool } from '@/lib/cad/worker-pool'
import { env } from '@/lib/env'

const IDENTIFIER = /^\$?[A-Za-z_][A-Za-z0-9_]*$/
const NOISE = /^(Could not initialize localization|Geometries in cache|Geometry cache size|CGAL Polyhedrons in cache|CGAL cache size)/
const PROBLEM = /^(ERROR|WARNING|TRACE|DEPRECATED|FONT-WARNING|UI-WARNING|EXPORT-WARNING|EXPORT-ERROR|PARSER-ERROR)\b|^Current top level object is empty/i

/** OpenSCAD source for a value given with -D: numbers and booleans as they are, strings quoted. */
export function toDefine(key: string, value: ParameterValue): string {
  if (!IDENTIFIER.test(key)) throw new Error(`not an OpenSCAD variable name: ${key}`)
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`${key} must be a finite number`)
  // JSON string escapes (\" \\ \n \uXXXX) are also OpenSCAD's.
  return `${key}=${typeof value === 'string' ? JSON.stringify(value) : String(value)}`
}

function splitLog(output: string[]): EngineLog {
  const lines = output.filter((line) => line.trim() !== '' && !NOISE.test(line.trim())).map((line) => line.replaceAll('/model/', ''))
  return {
    message: lines.filter((line) => !PROBLEM.test(line.trim())).join('\n'),
    error: lines.filter((line) => PROBLEM.test(line.trim())).join('\n'),
  }
}

const globalForPool = globalThis as unknown as { paraformOpenscadPool?: WorkerPool<OpenscadJob, OpenscadJobResult> }

function pool(): WorkerPool<OpenscadJob, OpenscadJobResult> {
  globalForPool.paraformOpenscadPool ??= new WorkerPool({
    script: path.join(process.cwd(), 'lib/cad/openscad/openscad-worker.ts'),
    size: env.BUILD_WORKERS,
    maxHeapMb: 512,
  })
  return globalForPool.paraformOpenscadPool
}

async function runJob(job: OpenscadJob, timeLimitMs: number): Promise<OpenscadJobResult> {
  try {
    return await pool().run(job, timeLimitMs)
  } catch (error) {
    const reason = error instanceof TimeLimitError ? `the build was ${error.message}` : (error as Error).message
    return { exitCode: 1, output: [`ERROR: ${reason}`] }
  }
}

export const openscadEngine: CadEngine = {
  async readParameters({ files, mainFile, timeLimitMs, memoryLimitBytes }: ModelSource & EngineLimits) {
    const result = await runJob({ kind: 'parameters', files, mainFile, defines: [], memoryLimitBytes }, timeLimitMs)
    const log = splitLog(result.output)
    if (result.parameters === undefined) return { ok: false, parameters: [], log }
    try {
      return { ok: true, parameters: parseOpenscadParameters(result.parameters), log }
    } catch (error) {
      const reason = `ERROR: could not read the model's parameters: ${(error as Error).message}`
      return { ok: false, parameters: [], log: { ...log, error: [log.error, reason].filter(Boolean).join('\n') } }
    }
  },

  async build({ files, mainFile, values, overrides, timeLimitMs, memoryLimitBytes }: BuildInput) {
    const defines = Object.entries({ ...values, ...overrides }).map(([key, value]) => toDefine(key, value))
    const result = await runJob({ kind: 'build', files, mainFile, defines, memoryLimitBytes }, timeLimitMs)
    return { mesh: result.mesh ?? null, log: splitLog(result.output) }
  },
}

/** Starts the workers (and their first warm instances) before the first request needs them. */
export function warmUpOpenscad(): void {
  pool()
}
