import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>

interface RouteFile {
  segments: string[]
  module: Promise<Record<string, unknown>>
}

const API_DIR = path.join(process.cwd(), 'app/api')

function findRouteFiles(dir: string, segments: string[] = []): RouteFile[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return findRouteFiles(path.join(dir, entry.name), [...segments, entry.name])
    if (entry.name !== 'route.ts') return []
    return [{ segments, module: import(path.join(dir, entry.name)) as Promise<Record<string, unknown>> }]
  })
}

const ROUTES = findRouteFiles(API_DIR)

// Next's order: static segments beat [param], which beats [...catchAll].
function specificity(segments: string[]): number[] {
  return segments.map((segment) => (segment.startsWith('[[...') ? -1 : segment.startsWith('[...') ? 0 : segment.startsWith('[') ? 1 : 2))
}

function match(route: RouteFile, parts: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {}
  for (const [index, segment] of route.segments.entries()) {
    const catchAll = /^\[(\[)?\.\.\.(\w+)\]\]?$/.exec(segment)
    if (catchAll?.[2]) {
      const isOptional = catchAll[1] !== undefined
      if (index >= parts.length && !isOptional) return null
      params[catchAll[2]] = parts.slice(index)
      return params
    }
    const part = parts[index]
    if (part === undefined) return null
    const dynamic = /^\[(\w+)\]$/.exec(segment)
    if (dynamic?.[1]) params[dynamic[1]] = part
    else if (segment !== part) return null
  }
  return route.segments.length === parts.length ? params : null
}

function resolve(pathname: string) {
  const parts = pathname.replace(/^\/api\/?/, '').split('/').filter(Boolean).map(safeDecode)
  const candidates = ROUTES.flatMap((route) => {
    const params = match(route, parts)
    return params ? [{ route, params }] : []
  })
  candidates.sort((a, b) => compare(specificity(b.route.segments), specificity(a.route.segments)))
  return candidates[0]
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? -1) - (b[i] ?? -1)
    if (difference !== 0) return difference
  }
  return 0
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

export interface CallOptions {
  token?: string
  headers?: Record<string, string>
  /** An object is sent as JSON; strings, bytes and streams are sent raw. */
  body?: unknown
}

/**
 * Calls the real route handler for `method path` (as Next would route it) and answers its
 * Response. Paths are relative to /api and may carry a query string and percent-encodings.
 */
export async function api(method: string, pathAndQuery: string, options: CallOptions = {}): Promise<Response> {
  const url = new URL(`/api${pathAndQuery}`, 'http://localhost:3000')
  const resolved = resolve(url.pathname)
  if (!resolved) throw new Error(`no route for ${url.pathname}`)
  const module = await resolved.route.module
  const handler = module[method] as Handler | undefined
  if (!handler) return new Response(null, { status: 405 })
  const headers = new Headers(options.headers)
  if (options.token) headers.set('authorization', `Bearer ${options.token}`)
  let body: BodyInit | undefined
  if (typeof options.body === 'string' || options.body instanceof Uint8Array || options.body instanceof ReadableStream) {
    body = options.body as BodyInit
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
  }
  const request = new Request(url, { method, headers, body, ...(body instanceof ReadableStream && { duplex: 'half' }) })
  return handler(request, { params: Promise.resolve(resolved.params) })
}

export function uniqueEmail(): string {
  return `user-${randomUUID()}@example.test`
}
