import type { EngineLog, ModelFile, ParameterValue } from '@/lib/cad/engine'

// OpenSCAD renders text in a fallback font, without a word, when the one asked for is missing.
// The fonts a model names (`font = "..."` in its sources, and font parameters' values) are
// looked up by OpenSCAD itself with fontmetrics() after the model, and the log says which font
// was missing and which one was used instead.

const MARK = 'PARAFORM-FONT'
const FONT_ASSIGNMENT = /\bfont\s*=\s*"([^"\\\n]{1,200})"/g
const SAFE_SPEC = /^[^"\\\n\r]{1,200}$/
const MAX_PROBES = 20
const PROBE_LINE = new RegExp(`^ECHO: "${MARK}", "(.*)", \\{ family = "(.*)"; style = "(.*)"; \\}$`)

export function requestedFonts(files: ModelFile[], values: Record<string, ParameterValue>): string[] {
  const decoder = new TextDecoder()
  const specs = new Set<string>()
  for (const file of files) {
    if (!file.path.toLowerCase().endsWith('.scad')) continue
    for (const [, spec] of decoder.decode(file.data).matchAll(FONT_ASSIGNMENT)) specs.add(spec!)
  }
  for (const [key, value] of Object.entries(values))
    if (/font/i.test(key) && typeof value === 'string') specs.add(value)
  return [...specs].filter((spec) => SAFE_SPEC.test(spec)).slice(0, MAX_PROBES)
}

/** The model's files with a lookup of every font it names appended to the main file (after its last line, so line numbers stay). */
export function addFontProbe(
  files: ModelFile[],
  mainFile: string,
  values: Record<string, ParameterValue>,
): ModelFile[] {
  const specs = requestedFonts(files, values)
  if (specs.length === 0) return files
  const probe = specs
    .map((spec) => `echo("${MARK}", ${JSON.stringify(spec)}, fontmetrics(font = ${JSON.stringify(spec)}).font);`)
    .join('\n')
  return files.map((file) =>
    file.path === mainFile ? { path: file.path, data: Buffer.concat([file.data, Buffer.from(`\n${probe}\n`)]) } : file,
  )
}

export function parseSpec(spec: string): { family: string; style: string | null } {
  const [family = '', ...properties] = spec.split(':')
  const style = properties
    .map((property) => /^style=(.*)$/i.exec(property.trim())?.[1])
    .find((value) => value !== undefined)
  return { family: family.trim(), style: style?.trim() ?? null }
}

/** The log without the lookups' lines, and a warning for each font that was not there. */
export function readFontProbe(log: EngineLog): EngineLog {
  const warnings: string[] = []
  const message = log.message
    .split('\n')
    .filter((line) => {
      const match = PROBE_LINE.exec(line)
      if (!match) return true
      const [, spec = '', family = '', style = ''] = match
      const asked = parseSpec(spec)
      const isFamily = asked.family === '' || asked.family.toLowerCase() === family.toLowerCase()
      const isStyle = asked.style === null || asked.style.toLowerCase() === style.toLowerCase()
      if (!isFamily || !isStyle)
        warnings.push(`WARNING: font "${spec}" is not available; the text uses "${family}" (${style}) instead`)
      return false
    })
    .join('\n')
  return { message, error: [log.error, ...warnings].filter(Boolean).join('\n') }
}
