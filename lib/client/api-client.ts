import type { ErrorBody, FieldError } from '@/lib/api/schemas'

// The browser's way to the API: same-origin fetch (the studio's cookie session rides along),
// or an application's anonymous token and X-API-KEY on the embed page. Pages call it through
// lib/endpoints/client.ts, by operation.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** On 422: each field that is wrong. */
    readonly fields: FieldError[] = [],
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export interface ApiCredentials {
  token?: string
  apiKey?: string
}

export interface ApiRequestInit {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Sent as application/json. */
  json?: unknown
  /** Sent as is (file uploads). */
  body?: BodyInit
  headers?: Record<string, string>
  credentials?: ApiCredentials
  signal?: AbortSignal
}

/** A request to `/api{path}`; any answer but 2xx throws ApiError with the API's own code and message. */
export async function apiRequest(path: string, init: ApiRequestInit = {}): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers }
  if (init.json !== undefined) headers['content-type'] = 'application/json'
  if (init.credentials?.token) headers.authorization = `Bearer ${init.credentials.token}`
  if (init.credentials?.apiKey) headers['x-api-key'] = init.credentials.apiKey
  const response = await fetch(`/api${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    credentials: 'same-origin',
    signal: init.signal,
  })
  if (!response.ok) throw parseApiError(response.status, response.statusText, await response.text().catch(() => ''))
  return response
}

/** The API's `{error: {code, message, fields?}}` body as an ApiError, or a generic one for any other body. */
export function parseApiError(status: number, statusText: string, text: string): ApiError {
  try {
    // Checked by hand: three fields, and every page reaches this without loading any schema.
    const { error } = JSON.parse(text) as Partial<ErrorBody>
    if (typeof error?.code === 'string' && typeof error.message === 'string') {
      return new ApiError(status, error.code, error.message, Array.isArray(error.fields) ? error.fields : [])
    }
  } catch {
    // not JSON at all (e.g. a proxy's page)
  }
  return new ApiError(status, 'http_error', `The server answered ${status} ${statusText}`.trim())
}
