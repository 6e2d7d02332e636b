import type { EngineLog, ModelFile } from '../engine'
import type { Mesh } from '../mesh/mesh'

export interface OpenscadJob {
  kind: 'parameters' | 'build'
  files: ModelFile[]
  mainFile: string
  /** Placed in OpenSCAD's built-in library folder. */
  libraries: ModelFile[]
  /** `name=value` assignments in OpenSCAD syntax, passed as -D. */
  defines: string[]
  memoryLimitBytes: number
}

export interface OpenscadJobResult {
  exitCode: number
  /** What OpenSCAD printed, sorted and bounded (lib/cad/openscad/openscad-log.ts). */
  log: EngineLog
  /** The Customizer parameter JSON of a successful `parameters` job. */
  parameters?: string
  /** The model of a successful `build` job. */
  mesh?: Mesh
}
