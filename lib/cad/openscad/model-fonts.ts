import type { ModelFile, ParameterValue } from '../engine'
import { parseSpec, requestedFonts } from './font-probe'

// fontconfig reads every font placed in an instance the first time a model draws text: with the
// machine's few hundred fonts that took ~250 ms of each text build (the engine alone ~50 ms).
// A build places only the fonts it can use: those of the families its sources and font
// parameters name, and the families fontconfig falls back to (openscad-instance.ts) when one is
// missing or none is named. A model that draws no text gets none.

/** OpenSCAD's default font, then the one every machine has (bundled). fonts.conf appends both. */
export const FALLBACK_FAMILIES = ['Liberation Sans', 'DejaVu Sans']

const DRAWS_TEXT = /\b(?:text|textmetrics|fontmetrics)\s*\(/

// Library files are the same objects from build to build (lib/recent-reads.ts): looked at once.
const drawsText = new WeakMap<Uint8Array, boolean>()

function mayDrawText(file: ModelFile): boolean {
  if (!file.path.toLowerCase().endsWith('.scad')) return false
  let draws = drawsText.get(file.data)
  if (draws === undefined) {
    draws = DRAWS_TEXT.test(new TextDecoder().decode(file.data))
    drawsText.set(file.data, draws)
  }
  return draws
}

export interface ModelText {
  files: ModelFile[]
  libraries: ModelFile[]
  values: Record<string, ParameterValue>
}

/** The fonts of `available` a build of the model may draw with (lower-case families compared). */
export function fontsForModel<Font extends { family: string }>(
  { files, libraries, values }: ModelText,
  available: Font[],
): Font[] {
  if (!files.some(mayDrawText) && !libraries.some(mayDrawText)) return []
  const present = new Set(available.map((font) => font.family.toLowerCase()))
  const named = requestedFonts(files, values).map((spec) => parseSpec(spec).family.toLowerCase())
  const families = new Set(named.filter((family) => present.has(family)))
  if (named.length === 0 || families.size < named.length)
    for (const family of FALLBACK_FAMILIES) families.add(family.toLowerCase())
  return available.filter((font) => families.has(font.family.toLowerCase()))
}
