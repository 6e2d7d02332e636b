export type JsonObjectResult = { value: Record<string, unknown>; error: null } | { value: null; error: string }

/** Parses text that must hold a JSON object; the error says what is wrong and where (line and column). */
export function parseJsonObject(text: string): JsonObjectResult {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { value: null, error: describeJsonSyntaxError(text, error instanceof Error ? error.message : String(error)) }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { value: null, error: 'Must be a JSON object, for example {"limits": {"buildSeconds": 30}}' }
  }
  return { value: value as Record<string, unknown>, error: null }
}

/**
 * Engines word JSON.parse errors differently: Chromium names a position with line and column,
 * Firefox line and column, older V8 sometimes only the unexpected token. Input that ends too
 * early is located at its end.
 */
export function describeJsonSyntaxError(text: string, message: string): string {
  const lineColumn = /line (\d+) column (\d+)/.exec(message)
  const position =
    /position (\d+)/.exec(message)?.[1] ??
    (/end of (JSON )?(input|data)/i.test(message) ? String(text.length) : undefined)
  const reason = message
    .replace(/^JSON\.parse: /, '')
    .replace(/\s*(in JSON )?at position \d+.*$/, '')
    .replace(/\s*at line \d+ column \d+.*$/, '')
  if (lineColumn) return `Invalid JSON at line ${lineColumn[1]}, column ${lineColumn[2]}: ${reason}`
  if (position === undefined) return `Invalid JSON: ${reason}`
  const [line, column] = locate(text, Number(position))
  return `Invalid JSON at line ${line}, column ${column}: ${reason}`
}

function locate(text: string, position: number): [number, number] {
  const before = text.slice(0, position).split('\n')
  return [before.length, (before.at(-1)?.length ?? 0) + 1]
}
