import type { EngineLog, ModelFile } from '../engine'
import type { Mesh } from '../mesh/mesh'
import type { PrintMeasures } from '../mesh/printability'

/** A machine's font by its file, which the worker reads once, or a snapshot's by its bytes; `path` is its name where it is placed. */
export type PlacedFont = { path: string; file: string } | ModelFile

export interface OpenscadJob {
  kind: 'parameters' | 'build' | 'parts'
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
}
