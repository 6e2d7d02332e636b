import { AppError } from '@/lib/api/errors'
import { UNTRUSTED_CONTENT_HEADERS } from '@/lib/storage/untrusted-content'

export interface ForwardRequestOptions {
  request: Request
  /** The service's configured base URL, possibly with a path prefix. */
  baseUrl: string
  /** The checked, decoded segments after the service name, joined by '/'. */
  path: string
  /** Where clients reach the service here, ending in '/': `/api/services/{name}/`. */
  publicPath: string
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
]

function forwardedHeaders(incoming: Headers, hasBody: boolean): Headers {
  // Headers the client names in `connection` are hop-by-hop as well (RFC 9110 7.6.1).
  const hopByHop = new Set((incoming.get('connection') ?? '').split(',').map((name) => name.trim().toLowerCase()))
  const headers = new Headers({ 'accept-encoding': 'identity' })
  for (const [name, value] of incoming) {
    const isAllowed =
      REQUEST_HEADERS.has(name) ||
      (name.startsWith('x-') && !REQUEST_HEADERS_NEVER.has(name) && !INTERNAL_PREFIX.test(name))
    if (isAllowed && !hopByHop.has(name) && (hasBody || name !== 'content-length')) headers.set(name, value)
  }
  return headers
}

function returnedHeaders(upstream: Headers, location: string | null): Headers {
  // fetch decodes any content-encoding itself (we ask for identity, but a service may encode
  // anyway), so the encoding and the encoded length no longer describe the body we pass on.
  const isDecoded = upstream.has('content-encoding')
  // The answer reaches the browser on our origin: it must never run as one of our pages.
  const headers = new Headers(UNTRUSTED_CONTENT_HEADERS)
  for (const name of RESPONSE_HEADERS) {
    const value = upstream.get(name)
    if (value !== null && !(isDecoded && name === 'content-length')) headers.set(name, value)
  }
  if (location !== null) headers.set('location', location)
  return headers
}

/**
 * A `Location` under the service's base URL as the client reaches it here (as reverse proxies
 * rewrite redirects), resolved against the service's request URL first; null for one that
 * points anywhere else, which would hand out an internal address.
 */
function publicLocation(
  location: string | null,
  upstreamUrl: string,
  baseUrl: string,
  publicPath: string,
): string | null {
  const target = location === null ? null : URL.parse(location, upstreamUrl)
  if (!target) return null
  const base = new URL(baseUrl)
  const basePath = base.pathname.replace(/\/*$/, '/')
  const isUnderBase = target.pathname.startsWith(basePath) || `${target.pathname}/` === basePath
  if (target.origin !== base.origin || !isUnderBase) return null
  return `${publicPath}${target.pathname.slice(basePath.length)}${target.search}${target.hash}`
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
export async function forwardRequest({
  request,
  baseUrl,
  path,
  publicPath,
  timeoutMs,
}: ForwardRequestOptions): Promise<Response> {
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
  const url = serviceUrl(baseUrl, path, new URL(request.url).search)
  let upstream: Response
  try {
    upstream = await fetch(url, init)
  } catch {
    if (controller.signal.aborted)
      throw new AppError('gateway_timeout', `Service did not answer within ${timeoutMs} ms`)
    throw new AppError('bad_gateway', 'Service unreachable')
  } finally {
    clearTimeout(timer)
  }
  return new Response(upstream.body, {
    status: upstream.status,
    statusText: upstream.statusText,
    headers: returnedHeaders(
      upstream.headers,
      publicLocation(upstream.headers.get('location'), url, baseUrl, publicPath),
    ),
  })
}
