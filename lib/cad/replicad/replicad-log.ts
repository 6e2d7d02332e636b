import type { LogDiagnostic } from '../cad-system'
import type { EngineLog } from '../engine'

// A replicad build's log: what the model printed (console.log) in `message`; its errors and
// warnings in `error`, one a line, `ERROR: <what> (<file>:<line>:<column>)` when a place of the
// model's source is known, as a JavaScript stack names it.

const PROBLEM = /^(ERROR|WARNING): (.*?)(?: \(([^()]+?):(\d+)(?::\d+)?\))?$/

/** An error line naming its place in the model's file when `line` is known. */
export function errorLine(message: string, file: string, line?: number, column?: number): string {
  const flat = message.replace(/\s*\n\s*/g, ' ')
  return line === undefined
    ? `ERROR: ${flat}`
    : `ERROR: ${flat} (${file}:${line}${column === undefined ? '' : `:${column}`})`
}

/** Why the build failed, in a customer's words: the first error's message, without its place or the error's class. */
export function failureReason({ error }: EngineLog): string | null {
  const line = error.split('\n').find((candidate) => candidate.startsWith('ERROR:'))
  if (line === undefined) return null
  const [, , message = ''] = PROBLEM.exec(line) ?? []
  return message.replace(/^(Error|RangeError|TypeError): /, '')
}

/** The problems the log places in the file at `path` (`configurator/main.js`). */
export function diagnosticsOf(log: string, path: string): LogDiagnostic[] {
  const relativePath = path.replace(/^configurator\//, '')
  return log.split('\n').flatMap((text) => {
    const [, kind, message = '', file, line] = PROBLEM.exec(text.trim()) ?? []
    if (!kind || file !== relativePath) return []
    return [{ line: Number(line), severity: kind === 'ERROR' ? ('error' as const) : ('warning' as const), message }]
  })
}
