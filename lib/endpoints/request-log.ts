import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ROUTES } from '@/lib/endpoints/routes'
import { logger } from '@/lib/log'
import { metrics } from '@/lib/metrics'

// Every request the server answers: its request id (the caller's X-Request-Id when sane, else a
// new one, always answered in the same header), one log line and its metrics, by the operation
// it reached. The line names the path without its query (a `key` there is a secret).

const REQUEST_ID = /^[\w.:-]{1,128}$/

/** [operation id, method, pattern], the most literal paths first: `/configurators/{id}/files` before `/configurators/{id}`. */
const OPERATIONS = Object.entries(ROUTES)
  .map(([id, { method, path }]) => {
    const pattern = path
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{path\}$/, '.+')
      .replace(/\{\w+\}/g, '[^/]+')
    return { id, method: method, pattern: new RegExp(`^/api${pattern}$`), literal: path.replace(/\{\w+\}/g, '').length }
  })
  .sort((a, b) => b.literal - a.literal)

/** The operation a request reached, or what else it was: bounded, never a path. */
export function operationOf(method: string, pathname: string): string {
  if (pathname === '/metrics') return 'metrics'
  if (pathname.startsWith('/_next/') || pathname === '/favicon.ico' || pathname === '/embed.js') return 'asset'
  if (!pathname.startsWith('/api/')) return 'page'
  // The interface spells the session collection both ways.
  const path = pathname.replace(/^\/api\/configSessions\//, '/api/configsessions/')
  return OPERATIONS.find((operation) => operation.method === method && operation.pattern.test(path))?.id ?? 'unknown'
}

/** Gives the request its id and logs and counts it once the answer is sent (or the client left). */
export function observeRequest(request: IncomingMessage, response: ServerResponse): void {
  const given = request.headers['x-request-id']
  const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
  request.headers['x-request-id'] = requestId
  response.setHeader('x-request-id', requestId)
  const started = performance.now()
  response.once('close', () => {
    const seconds = (performance.now() - started) / 1000
    const pathname = (request.url ?? '/').split('?')[0]!
    // Read at the end: a scene update sent as a GET with a body is handled as the PUT it is.
    const operation = operationOf(request.method ?? 'GET', pathname)
    const status = response.writableFinished ? response.statusCode : 499
    metrics.httpRequests.inc({ operation, status })
    metrics.httpDuration.observe({ operation }, seconds)
    const line = {
      requestId,
      method: request.method,
      path: pathname,
      operation,
      status,
      durationMs: Math.round(seconds * 10_000) / 10,
    }
    if (status >= 500) logger.error(line, 'request')
    else logger.info(line, 'request')
  })
}
