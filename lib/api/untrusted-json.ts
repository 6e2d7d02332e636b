import { AppError, type FieldError, ValidationError } from '@/lib/api/errors'

export const MAX_JSON_DEPTH = 64

/**
 * Parses JSON from a client: 400 when it is malformed or nested deeper than MAX_JSON_DEPTH.
 * The depth is counted on the text, in one pass and before parsing, so no later recursive
 * walk (validation, serialization) can overflow the stack.
 */
export function parseUntrustedJson(text: string): unknown {
  let depth = 0
  let inString = false
  for (let at = 0; at < text.length; at++) {
    const char = text[at]
    if (inString) {
      if (char === '\\') at++
      else if (char === '"') inString = false
    } else if (char === '"') {
      inString = true
    } else if (char === '{' || char === '[') {
      if (++depth > MAX_JSON_DEPTH)
        throw new AppError('bad_request', `Malformed JSON: nested deeper than ${MAX_JSON_DEPTH} levels`)
    } else if (char === '}' || char === ']') {
      depth--
    }
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new AppError('bad_request', `Malformed JSON: ${(error as Error).message}`)
  }
}

/**
 * 422 naming a field whose value or key holds a NUL character: PostgreSQL stores
 * none, in text or in jsonb. `prefix` starts the field's path, as in ["query"].
 */
export function assertNoNul(value: unknown, prefix: FieldError['path'] = []): void {
  const pending: { value: unknown; path: FieldError['path'] }[] = [{ value, path: prefix }]
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value === 'string') {
      if (next.value.includes('\0'))
        throw new ValidationError([{ path: next.path, message: 'must not contain NUL characters' }])
    } else if (typeof next.value === 'object' && next.value !== null) {
      for (const [key, item] of Object.entries(next.value)) {
        if (key.includes('\0'))
          throw new ValidationError([{ path: next.path, message: 'keys must not contain NUL characters' }])
        pending.push({ value: item, path: [...next.path, Array.isArray(next.value) ? Number(key) : key] })
      }
    }
  }
}
