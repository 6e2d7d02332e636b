import type { z } from 'zod'
import type { ClientErrorCode } from '@/lib/api/schemas'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
/**
 * `session`: a user token, or an application's token together with its X-API-KEY.
 * `session-or-key`: as `session`, or instead a `key` query parameter checked by the handler.
 * `optional`: a valid token is passed on; a missing, invalid or expired one counts as none.
 */
export type AuthMode = 'none' | 'optional' | 'user' | 'admin' | 'session' | 'session-or-key'

/**
 * One HTTP operation: the route handler parses with these schemas and the OpenAPI document
 * is generated from the same objects.
 */
export interface Operation {
  id: string
  method: Method
  path: string
  summary: string
  tag: string
  auth: AuthMode
  params?: z.ZodObject
  query?: z.ZodObject
  /** A zod schema for JSON bodies, `raw` for a streamed body of any type. */
  body?: z.ZodType | 'raw'
  /** For a `raw` body the handler may parse as JSON: its schema, for the OpenAPI document. */
  requestSchema?: z.ZodType
  /** Success status: 200 by default, 204 for an operation without response or produces. */
  status?: number
  /** The JSON answer's schema; the handler must return its output type. */
  response?: z.ZodType
  /** Media type of a non-JSON answer; the handler returns a Response. */
  produces?: string
  /**
   * The 4xx answers of the handler itself that the fields above do not imply (lib/endpoints/openapi.ts
   * clientErrors): a conflict, a rate limit, a check of what route() does not parse.
   */
  errors?: readonly ClientErrorCode[]
}

export function defineOperation<const O extends Operation>(operation: O): O {
  return operation
}

/**
 * `/configurators/abc/files/configurator/main.scad`: an operation's path (under /api) with its
 * parameters filled in, each encoded (an array, such as `{path}`, as one segment each; a
 * missing one with its slash left out).
 */
export function fillPath(path: string, params: Readonly<Record<string, unknown>>): string {
  return path.replace(/\/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) return ''
    return `/${(Array.isArray(value) ? value : [value]).map((segment) => encodeURIComponent(String(segment))).join('/')}`
  })
}
