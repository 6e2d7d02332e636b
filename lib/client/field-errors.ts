import { ApiError } from '@/lib/client/api-client'

/**
 * A 422 message ("name: Too small; extraSettings.limits.buildSeconds: Too small") split by the
 * top-level field each part names, so a form can show it next to that field.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 422) return {}
  const errors: Record<string, string> = {}
  for (const part of error.message.split('; ')) {
    const field = /^([A-Za-z]\w*)[.:]/.exec(part)?.[1]
    if (field) errors[field] = errors[field] ? `${errors[field]}; ${part}` : part
  }
  return errors
}
