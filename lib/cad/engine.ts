import { z } from 'zod'
import type { Mesh } from '@/lib/cad/mesh/mesh'
import type { PrintMeasures } from '@/lib/cad/mesh/printability'
import type { Scheduling } from '@/lib/cad/worker-pool'

/** A file as the model sees it, relative to the model's root directory. */
export interface ModelFile {
  path: string
  data: Uint8Array
}

export const ZParameterValue = z.union([z.number(), z.string(), z.boolean(), z.array(z.number())])
export type ParameterValue = z.infer<typeof ZParameterValue>

/** A model's parameter values by key. */
export const ZValues = z.record(z.string(), ZParameterValue)
export type Values = z.infer<typeof ZValues>

const base = { key: z.string(), group: z.string(), caption: z.string() }
const range = { min: z.number().nullable(), max: z.number().nullable(), step: z.number().nullable() }
const ZOptionValue = z.union([z.number(), z.string()])

/** A model parameter, engine-neutral: what the session code validates and shows. */
export const ZParameterDefinition = z.discriminatedUnion('kind', [
  z.object({ ...base, kind: z.literal('number'), default: z.number(), ...range }),
  /** 1 to 4 numbers; min, max and step apply to each. */
  z.object({ ...base, kind: z.literal('vector'), default: z.array(z.number()), ...range }),
  z.object({
    ...base,
    kind: z.literal('choice'),
    default: ZOptionValue,
    options: z.array(z.object({ value: ZOptionValue, label: z.string() })),
  }),
  z.object({ ...base, kind: z.literal('bool'), default: z.boolean() }),
  z.object({ ...base, kind: z.literal('string'), default: z.string(), maxLength: z.number().nullable() }),
  z.object({ ...base, kind: z.literal('file'), default: z.string() }),
])
export type ParameterDefinition = z.infer<typeof ZParameterDefinition>

/** What a CAD run printed: `message` its echo and info output, `error` its errors and warnings. */
export interface EngineLog {
  message: string
  error: string
}

/** The log with one more error line of our own, which is never cut. */
export function withError(log: EngineLog, line: string): EngineLog {
  return { ...log, error: [log.error, line].filter(Boolean).join('\n') }
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

// Where a model refuses values (lib/cad/refused-values.ts searches them).

/** A closed range of refused numbers, exact to the step at both ends. */
export interface RefusedRange {
  from: number
  to: number
  message: string
}

/** A value of a choice, or a boolean. */
export type OptionValue = number | string | boolean

export type ParameterRefusals =
  | { searched: true; ranges: RefusedRange[]; options: { value: OptionValue; message: string }[] }
  | { searched: true; components: { ranges: RefusedRange[] }[] }
  | { searched: false; reason: string }

export interface SearchResult {
  refusals: ParameterRefusals
  /** Every sample evaluated and every change bisected to the step. */
  complete: boolean
}

/** A search for the values of one parameter that the model refuses, the others at `values`. */
export interface RefusalsInput extends BuildInput {
  parameter: ParameterDefinition
  budget: { evaluations: number; timeMs: number }
}

/** A model's parts closed: what `closeParts` reads. */
export interface PartsInput extends BuildInput {
  /** The build of the same values: one solid, its faces in parts by colour. */
  union: Mesh
}

/** A model written as a file its engine writes itself (STEP): `type` is one of its CAD system's exportTypes. */
export interface ExportInput extends BuildInput {
  type: string
}

export interface ExportOutput {
  /** Null when the model did not build or could not be written; `log.error` says why. */
  file: Uint8Array | null
  log: EngineLog
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
  /** The values of a parameter the model refuses, by evaluating it without building; only engines that can. */
  refusedValues?(input: RefusalsInput): Promise<SearchResult & { evaluations: number; log: EngineLog }>
  /** The model as a file of one of its CAD system's exportTypes; only engines whose system has some. */
  exportModel?(input: ExportInput): Promise<ExportOutput>
}

export interface EngineVersion {
  /** What a configurator's cadVersion names. */
  version: string
  /** The engine that builds, as a snapshot freezes it: an old snapshot needs the same. */
  build: string
  engine: CadEngine
  /** Whether new configurators get it: the fastest present. */
  isFastest: boolean
}

/** A CAD system's server side. */
export interface EngineVersions {
  /** Its versions on this server; throws, naming the setting, when one configured cannot be used. */
  versions(): EngineVersion[]
  /** Starts its workers before the first request needs them. */
  warmUp(): void
}
