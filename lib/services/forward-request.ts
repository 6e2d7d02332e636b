import { AppError } from '@/lib/api/errors'

export interface ForwardRequestOptions {
  request: Request
  /** The service's configured base URL, possibly with a path prefix. */
  baseUrl: string
  /** The checked, decoded segments after the service name, joined by '/'. */
  path: string
  /** How long the service may take to answer with its status and headers. */
  timeoutMs: number
}

// An allow-list, so authorization, cookie, proxy-* and hop-by-hop headers never reach the service.
const REQUEST_HEADERS = new Set(['accept', 'content-type', 'content-length'])
const REQUEST_HEADERS_NEVER = new Set(['x-api-key'])
// Headers a proxy or Next.js itself would set; a client must not be able to forge them upstream.
const INTERNAL_PREFIX = /^x-(forwarded-|real-ip|middleware-|nextjs-|invoke-)/
const RESPONSE_HEADERS = [
  'content-type',
  'content-length',
  'content-disposition',
  'content-language',
  'etag',
  'last-modified',
  'cache-control',
  'location',
]

function forwardedHeaders(incoming: Headers, hasBody: boolean): Headers {
  // Headers the client names in `connection` are hop-by-hop as well (RFC 9110 7.6.1).
  const hopByHop = new Set((incoming.get('connection') ?? '').split(',').map((name) => name.trim().toLowerCase()))
  const headers = new Headers({ 'accept-encoding': 'identity' })
  for (const [name, value] of incoming) {
    const isAllowed = REQUEST_HEADERS.has(name) || (name.startsWith('x-') && !REQUEST_HEADERS_NEVER.has(name) && !INTERNAL_PREFIX.test(name))
    if (isAllowed && !hopByHop.has(name) && (hasBody || name !== 'content-length')) headers.set(name, value)
  }
  return headers
}

function returnedHeaders(upstream: Headers): Headers {
  // fetch decodes any content-encoding itself (we ask for identity, but a service may encode
  // anyway), so the encoding and the encoded length no longer describe the body we pass on.
  const isDecoded = upstream.has('content-encoding')
  const headers = new Headers()
  for (const name of RESPONSE_HEADERS) {
    const value = upstream.get(name)
    if (value !== null && !(isDecoded && name === 'content-length')) headers.set(name, value)
  }
  return headers
}

function serviceUrl(baseUrl: string, path: string, search: string): string {
  // Segments arrive decoded: a '?' or '#' in a name must not start the query or fragment.
  const encodedPath = path
    .split('/')
    .map((segment) => encodeURI(segment).replace(/[?#]/g, encodeURIComponent))
    .join('/')
  return `${baseUrl.replace(/\/+$/, '')}/${encodedPath}${search}`
}

/** Passes a request on to an extra service and streams its answer back. */
export async function forwardRequest({ request, baseUrl, path, timeoutMs }: ForwardRequestOptions): Promise<Response> {
  // fetch cannot send a body with GET or HEAD, so such a body is dropped.
  const hasBody = request.body !== null && request.method !== 'GET' && request.method !== 'HEAD'
  // A timer rather than AbortSignal.timeout: the limit is on answering, and must not cut off
  // a long download once the service has answered.
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  const init: RequestInit & { duplex: 'half' } = {
    method: request.method,
    headers: forwardedHeaders(request.headers, hasBody),
    body: hasBody ? request.body : null,
    duplex: 'half',
    redirect: 'manual',
    signal: controller.signal,
  }
  let upstream: Response
  try {
    upstream = await fetch(serviceUrl(baseUrl, path, new URL(request.url).search), init)
  } catch {
    if (controller.signal.aborted) throw new AppError('gateway_timeout', `Service did not answer within ${timeoutMs} ms`)
    throw new AppError('bad_gateway', 'Service unreachable')
  } finally {
    clearTimeout(timer)
  }
  return new Response(upstream.body, {
    status: upstream.status,
    statusText: upstream.statusText,
    headers: returnedHeaders(upstream.headers),
  })
}
