import type { EngineLog, ModelFile, ParameterDefinition, ParameterValue, SearchResult } from '../engine'
import type { Mesh } from '../mesh/mesh'
import type { PrintMeasures } from '../mesh/printability'

/** A machine's font by its file, which the worker reads once, or a snapshot's by its bytes; `path` is its name where it is placed. */
export type PlacedFont = { path: string; file: string } | ModelFile

export interface OpenscadJob {
  kind: 'parameters' | 'build' | 'parts' | 'refusals'
  files: ModelFile[]
  mainFile: string
  /** Placed in OpenSCAD's built-in library folder. */
  libraries: ModelFile[]
  /** The fonts the run may draw with (model-fonts.ts). */
  fonts: PlacedFont[]
  /** `name=value` assignments in OpenSCAD syntax, passed as -D. */
  defines: string[]
  memoryLimitBytes: number
  /** Of a `parts` job: the model as the build of the same defines made it. */
  union?: Mesh
  /** Of a `refusals` job: the parameter searched at these values, within a budget of evaluations and time. */
  search?: {
    parameter: ParameterDefinition
    values: Record<string, ParameterValue>
    overrides: Record<string, ParameterValue>
    evaluations: number
    timeMs: number
  }
  /** Of a native job: the time limit its sandbox enforces, the cores it may take (native-engine.ts), whether its OFF holds colours, and how its runs' folders begin. */
  native?: { timeLimitMs: number; cores: CoreClaim; writesColours: boolean; folderPrefix: string }
}

/**
 * The machine's cores, each 0 or the claim of the job that runs on it, shared by every worker
 * thread: a job takes up to `perBuild` free ones, so that builds running at once never fight
 * over the same cores (a native OpenSCAD's threads go where its affinity lets them).
 */
export interface CoreClaim {
  held: Int32Array
  claim: number
  perBuild: number
}

export interface OpenscadJobResult {
  exitCode: number
  /** What OpenSCAD printed, sorted and bounded (lib/cad/openscad/openscad-log.ts). */
  log: EngineLog
  /** The Customizer parameter JSON of a successful `parameters` job. */
  parameters?: string
  /** The model of a successful `build` job; the closed parts of a `parts` job. */
  mesh?: Mesh
  /** Of a `parts` job: its parts measured. */
  print?: PrintMeasures
  /** Of a `refusals` job: the values the model refuses, and how many evaluations it took. */
  refusals?: SearchResult & { evaluations: number }
}

export type RunFormat = 'param' | 'off' | 'binstl' | 'csg' | 'svg'

export interface Run {
  exitCode: number
  log: EngineLog
  /** The output file, when OpenSCAD wrote it. */
  output?: Uint8Array
}

/** One OpenSCAD run of the job's model in `format`; `input` is run ' + 'instead of the main file, beside ' + 'it, when given (a CSG tree holds ' + 'its values: no defines then). */
export type RunOpenscad = (job: OpenscadJob, format: RunFormat, input?: string) => Promise<Run>

/** Where `input` is written: beside the main file, so that its relative includes resolve. */
export const INPUT_FILE = '.paraform-colour.scad'
