import { ApiError } from '@/lib/client/api-client'

/**
 * A 422's fields by the top-level key each names, so a form can show the message next to that
 * field; a deeper path (inside a JSON field) starts the message.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 422) return {}
  const errors: Record<string, string> = {}
  for (const { path, message } of error.fields) {
    const [field, ...inside] = path
    if (typeof field !== 'string') continue
    const text = inside.length > 0 ? `${inside.join('.')}: ${message}` : message
    errors[field] = errors[field] ? `${errors[field]}; ${text}` : text
  }
  return errors
}
