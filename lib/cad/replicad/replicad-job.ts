import type { EngineLog, ParameterValue } from '../engine'
import type { Mesh } from '../mesh/mesh'
import type { PrintMeasures } from '../mesh/printability'

/** What a replicad worker thread (replicad-worker.ts) is asked: one run in its sandbox, or measuring a built model. */
export type ReplicadJob =
  | {
      kind: 'parameters' | 'build' | 'step'
      /** The main file's JavaScript. */
      code: string
      /** Its path, as the log names it (`main.js:12:9`). */
      file: string
      values: Record<string, ParameterValue>
      /** Of a build: the mesh's tolerances, in millimetres and degrees. */
      tolerance: number
      angularTolerance: number
      memoryLimitBytes: number
    }
  | {
      /** The parts of a build measured for manufacturing: they are closed solids already. */
      kind: 'parts'
      union: Mesh
    }

export interface ReplicadJobResult {
  log: EngineLog
  /** Of a build or parts job that succeeded. */
  mesh?: Mesh
  print?: PrintMeasures
  /** Of a parameters or build job: the module's own, raw. */
  defaultParams?: unknown
  parameters?: unknown
  /** Of a step job that succeeded. */
  step?: string
}
