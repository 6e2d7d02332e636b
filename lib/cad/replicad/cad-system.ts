import type { CadSystem } from '../cad-system'
import { diagnosticsOf, failureReason } from './replicad-log'
import { presetPath, starterFiles } from './starter-model'

/** replicad: OpenCascade's B-rep modelling in JavaScript, as replicad's workbench runs a model file. */
export const replicadSystem = {
  name: 'replicad',
  language: 'JavaScript',
  settings: {},
  mediaType: 'text/javascript',
  sourceExtensions: ['.js', '.mjs'],
  mainFile: 'main.js',
  starterFiles,
  presets: { path: presetPath, encode: (value) => value, fileName: 'a preset file' },
  libraryUse: null,
  usesLibrary: () => false,
  versionsNote: '`1.1` replicad 1.1 on OpenCascade (replicad-opencascadejs), each build in a sandbox',
  // Mesh tolerances, in mm and degrees: what the engine reads from a quality, never a model's parameter.
  defaultQuality: {
    preview: { $tolerance: 0.1, $angularTolerance: 15 },
    final: { $tolerance: 0.01, $angularTolerance: 5 },
  },
  qualityExample: { $tolerance: 0.05, $angularTolerance: 10 },
  exportTypes: { step: 'model/step' },
  failureReason,
  diagnostics: diagnosticsOf,
} satisfies CadSystem
