import type { LogDiagnostic } from '../cad-system'

const KIND = /^(TRACE|ERROR|WARNING|DEPRECATED|[A-Z]+-ERROR|[A-Z]+-WARNING):/
// `ERROR: Parser error: syntax error in file main.scad, line 3`, also with the name quoted or
// absolute, and with text after the place (`..., line 5: syntax error`). The last place counts:
// a designer's assert message may itself say "in file".
const PLACE = /^(.*)\s+in file\s+(?:"(.+?)"|'(.+?)'|(.+?)),\s*line\s+(\d+)(.*)$/
const CONFIGURATOR = 'configurator/'

interface Problem {
  severity: LogDiagnostic['severity']
  message: string
}

function isFile(name: string, relativePath: string): boolean {
  return name === relativePath || (name.startsWith('/') && name.endsWith(`/${relativePath}`))
}

/**
 * The problems OpenSCAD's log places in the open file, `path` being the studio's (`configurator/lib/parts.scad`).
 * A TRACE line (a call that led to a problem) takes the severity of that problem and says it.
 */
export function diagnosticsOf(log: string, path: string): LogDiagnostic[] {
  const relativePath = path.startsWith(CONFIGURATOR) ? path.slice(CONFIGURATOR.length) : path
  const diagnostics: LogDiagnostic[] = []
  let traced: Problem | undefined
  for (const text of log.split('\n').map((line) => line.trim())) {
    const kind = KIND.exec(text)?.[1]
    if (kind === undefined) continue
    const place = PLACE.exec(text)
    const [, before = text, doubleQuoted, singleQuoted, bare, line = '', after = ''] = place ?? []
    const unplaced = `${before}${after}`
    const problem: Problem =
      kind === 'TRACE'
        ? { severity: traced?.severity ?? 'error', message: traced ? `${unplaced}: ${traced.message}` : unplaced }
        : { severity: kind.endsWith('ERROR') ? 'error' : 'warning', message: unplaced }
    if (kind !== 'TRACE') traced = problem
    if (!place || !isFile(doubleQuoted ?? singleQuoted ?? bare ?? '', relativePath)) continue
    // The trace of a problem on its own line (`called by 'assert'`) says nothing more.
    if (
      kind === 'TRACE' &&
      diagnostics.some((diagnostic) => diagnostic.line === Number(line) && diagnostic.message === traced?.message)
    )
      continue
    diagnostics.push({ line: Number(line), ...problem })
  }
  return diagnostics
}
