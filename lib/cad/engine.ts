import type { Mesh } from '@/lib/cad/mesh/mesh'
import type { PrintMeasures } from '@/lib/cad/mesh/printability'
import type { Scheduling } from '@/lib/cad/worker-pool'

/** A file as the model sees it, relative to the model's root directory. */
export interface ModelFile {
  path: string
  data: Uint8Array
}

export type ParameterValue = number | string | boolean | number[]

/** A model's parameter values by key. */
export type Values = Record<string, ParameterValue>

interface ParameterBase {
  key: string
  group: string
  caption: string
}

/** A model parameter, engine-neutral: what the session code validates and shows. */
export type ParameterDefinition = ParameterBase &
  (
    | { kind: 'number'; default: number; min: number | null; max: number | null; step: number | null }
    /** 1 to 4 numbers; min, max and step apply to each. */
    | { kind: 'vector'; default: number[]; min: number | null; max: number | null; step: number | null }
    | { kind: 'choice'; default: number | string; options: { value: number | string; label: string }[] }
    | { kind: 'bool'; default: boolean }
    | { kind: 'string'; default: string; maxLength: number | null }
    | { kind: 'file'; default: string }
  )

/** What a CAD run printed: `message` its echo and info output, `error` its errors and warnings. */
export interface EngineLog {
  message: string
  error: string
}

export interface EngineLimits {
  timeLimitMs: number
  memoryLimitBytes: number
}

export interface ModelSource {
  files: ModelFile[]
  mainFile: string
  /** Installed libraries' files, each under its library's folder (`BOSL2/std.scad`), where the engine looks for libraries. */
  libraries: ModelFile[]
  /** Fonts to build with instead of this machine's: a snapshot's, when the machine's changed since. */
  fonts?: ModelFile[]
}

/** What the engine reads a model's parameters from. */
export interface ParametersInput extends ModelSource, EngineLimits {
  scheduling: Scheduling
}

export interface BuildInput extends ParametersInput {
  values: Record<string, ParameterValue>
  /** Engine variables set for this quality, e.g. OpenSCAD's `$fn`. */
  overrides: Record<string, ParameterValue>
}

/** A model's parts closed: what `closeParts` reads. */
export interface PartsInput extends BuildInput {
  /** The build of the same values: one solid, its faces in parts by colour. */
  union: Mesh
}

export interface BuildOutput {
  /** Null when the model did not build; `log.error` says why. */
  mesh: Mesh | null
  log: EngineLog
}

export interface PartsOutput extends BuildOutput {
  /** Of the parts in `mesh`: measured where they were closed, off the server's event loop. */
  print?: PrintMeasures
}

/**
 * A CAD system. The session code only ever talks to this interface. A run whose
 * `scheduling.signal` aborts rejects with the signal's reason; every other failure is a result.
 */
export interface CadEngine {
  /** `ok` is false when the engine could not read them; `log.error` says why. */
  readParameters(input: ParametersInput): Promise<{ ok: boolean; parameters: ParameterDefinition[]; log: EngineLog }>
  build(input: BuildInput): Promise<BuildOutput>
  /**
   * The build's parts as closed solids that never overlap, the later part in the source winning
   * what two share (lib/cad/mesh/solid-parts.ts), measured (lib/cad/mesh/printability.ts): what
   * manufacturing reads. When the engine cannot tell them apart, the model as one part, and
   * `log.error` says why; null `mesh` when the run itself failed (time or memory limit).
   */
  closeParts(input: PartsInput): Promise<PartsOutput>
}
