import type { z } from 'zod'
import type { EngineLog, ParameterValue } from '@/lib/cad/engine'

/** A problem a build's log places on a line of a model file. */
export interface LogDiagnostic {
  /** 1-based; may lie past the file's end (a parser error at its end). */
  line: number
  severity: 'error' | 'warning'
  message: string
}

/**
 * What only one CAD system knows, declared by it in `lib/cad/<system>/` and registered in
 * lib/cad/engines.ts: pure, for the studio and the customer page as for the server. How its
 * engines build is its server side (lib/cad/engine-versions.ts).
 */
export interface CadSystem {
  /** As designers name it: `OpenSCAD`. */
  name: string
  /** What its models are written in, for the studio: `OpenSCAD`, `JavaScript`. */
  language: string
  /** Its settings in the environment, which its server side reads (lib/env.ts parseSettings). */
  settings: z.ZodRawShape
  /** The media type its source files are served as. */
  mediaType: string
  /** The lower-case extensions of its source files (`.scad`): an archive's main-file candidates, what is scanned for libraries. */
  sourceExtensions: string[]
  /** A new configurator's main file. */
  mainFile: string
  /** What a new configurator made in the studio starts with, each path under `configurator/`: code that builds. */
  starterFiles(mainFile: string): { path: string; text: string }[]
  /** Presets: named parameter sets in one JSON file (`{parameterSets: {name: {key: value}}}`). */
  presets: {
    /** The file's path, `configurator/…`, for a main file. */
    path(mainFile: string): string
    /** A value as the file holds it. */
    encode(value: ParameterValue): ParameterValue
    /** What a file that cannot be read is called in the error: `an OpenSCAD parameter set file`. */
    fileName: string
  }
  /** How a model uses an installed library (lib/libraries/), e.g. `include <BOSL2/std.scad>`; null when the system has none. */
  libraryUse: string | null
  /** Whether a source file uses the installed library of this name. */
  usesLibrary(source: string, library: string): boolean
  /** Its versions as `GET /api/capabilities` lists them, for the API's documentation. */
  versionsNote: string
  /** The engine variables each quality sets unless the configurator's settings set them. */
  defaultQuality: Record<'preview' | 'final', Record<string, ParameterValue>>
  /** Quality overrides as an example for the designer: the variables its engine sets per quality. */
  qualityExample: Record<string, ParameterValue>
  /** The files beyond meshes (stl, 3mf, glb, usdz, off) its engine writes a model as, by `type`, with their media type. */
  exportTypes: Record<string, string>
  /** Why a build failed, in words a customer can read; null when the log names no error. */
  failureReason(log: EngineLog): string | null
  /** The problems `log` places in the file at `path` (the studio's: `configurator/lib/parts.scad`). */
  diagnostics(log: string, path: string): LogDiagnostic[]
}

/** Whether `path` is one of the system's source files, by its extension. */
export function isSourceFile(system: CadSystem, path: string): boolean {
  const name = path.toLowerCase()
  return system.sourceExtensions.some((extension) => name.endsWith(extension))
}
