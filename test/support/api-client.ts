import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import type { z } from 'zod'
import {
  operationMethod,
  operationPath,
  type InputArgs,
  type OperationBody,
  type OperationInput,
  type OperationResult,
} from '@/lib/endpoints/client'
import { OPERATIONS } from '@/lib/endpoints/openapi'
import { operations, type OperationId, type Operations } from '@/lib/endpoints/operations'
import type { Operation } from '@/lib/api/operation'

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>

interface RouteFile {
  segments: string[]
  /** Imported when first called: a test file ends before routes it never called have loaded, so none loads after its teardown. */
  load: () => Promise<Record<string, unknown>>
}

const API_DIR = path.join(process.cwd(), 'app/api')

function findRouteFiles(dir: string, segments: string[] = []): RouteFile[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return findRouteFiles(path.join(dir, entry.name), [...segments, entry.name])
    if (entry.name !== 'route.ts') return []
    let loaded: Promise<Record<string, unknown>> | undefined
    return [
      { segments, load: () => (loaded ??= import(path.join(dir, entry.name)) as Promise<Record<string, unknown>>) },
    ]
  })
}

const ROUTES = findRouteFiles(API_DIR)

// Next's order: static segments beat [param], which beats [...catchAll].
function specificity(segments: string[]): number[] {
  return segments.map((segment) =>
    segment.startsWith('[[...') ? -1 : segment.startsWith('[...') ? 0 : segment.startsWith('[') ? 1 : 2,
  )
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

// The interface spells the session collection both ways; next.config.ts rewrites one to the other.
function apiPath(pathname: string): string {
  return pathname.replace(/^\/api/, '').replace(/^\/configSessions(?=\/|$)/, '/configsessions')
}

function resolve(pathname: string) {
  const parts = apiPath(pathname).split('/').filter(Boolean).map(safeDecode)
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
 * For an operation, `call` below names it instead; `api` is for paths no operation has.
 */
export async function api(method: string, pathAndQuery: string, options: CallOptions = {}): Promise<Response> {
  const url = new URL(`/api${pathAndQuery}`, 'http://localhost:3000')
  const resolved = resolve(url.pathname)
  if (!resolved) throw new Error(`no route for ${url.pathname}`)
  const routeModule = await resolved.route.load()
  const handler = routeModule[method] as Handler | undefined
  if (!handler) return new Response(null, { status: 405 })
  const headers = new Headers(options.headers)
  if (options.token) headers.set('authorization', `Bearer ${options.token}`)
  let body: BodyInit | undefined
  if (
    typeof options.body === 'string' ||
    options.body instanceof Uint8Array ||
    options.body instanceof ReadableStream
  ) {
    body = options.body as BodyInit
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
  }
  const request = new Request(url, { method, headers, body, ...(body instanceof ReadableStream && { duplex: 'half' }) })
  const response = await handler(request, { params: Promise.resolve(resolved.params) })
  await expectMatchesSchema(response, method, url.pathname)
  return response
}

/** A body `api` sends as is. */
type RawBody = string | Uint8Array | ReadableStream

/** Operation K's path and query parameters, with the token, headers and body to send (its JSON body, or raw bytes). */
export type CallInput<K extends OperationId> = OperationInput<K> &
  Omit<CallOptions, 'body'> & { body?: OperationBody<K> | RawBody }

/** Operation K through `api`: its method and path from the operation, its parameters encoded. */
export function call<K extends OperationId>(id: K, input: CallInput<K>): Promise<Response> {
  const { params, query, ...options } = input
  return api(
    operationMethod(id),
    operationPath(id, ...([{ params, query }] as InputArgs<K, OperationInput<K>>)),
    options,
  )
}

type JsonOperationId = { [K in OperationId]: Operations[K] extends { response: z.ZodType } ? K : never }[OperationId]

/** Operation K's answer, which must be its success status, parsed with (and typed by) its response schema. */
export async function callJson<K extends JsonOperationId>(id: K, input: CallInput<K>): Promise<OperationResult<K>> {
  return readBody(await call(id, input), operations[id] as JsonOperation) as Promise<OperationResult<K>>
}

type JsonOperation = Operation & { response: z.ZodType }

// {path} holds one or more segments; every other variable one.
const OPERATION_PATTERNS = OPERATIONS.map((operation) => ({
  operation,
  pattern: new RegExp(`^${operation.path.replace(/\{path\}/g, '.+').replace(/\{\w+\}/g, '[^/]+')}$`),
}))

function findOperation(method: string, pathname: string): Operation | undefined {
  const path = apiPath(pathname)
  return OPERATION_PATTERNS.find(({ operation, pattern }) => operation.method === method && pattern.test(path))
    ?.operation
}

/**
 * The schemas are the contract: a 2xx JSON answer must parse with its operation's response
 * schema and come out unchanged, so a missing field (filled by a default) or a key the schema
 * does not name fails the test.
 */
async function expectMatchesSchema(response: Response, method: string, pathname: string) {
  if (
    response.status < 200 ||
    response.status > 299 ||
    !/^application\/json\b/.test(response.headers.get('content-type') ?? '')
  )
    return
  const operation = findOperation(method, pathname)
  if (!operation?.response) return
  const body: unknown = await response.clone().json()
  const result = operation.response.safeParse(body)
  if (!result.success)
    throw new Error(
      `${method} ${pathname} answered a body that is not a ${operation.id} response:\n${result.error.message}`,
    )
  expect(result.data, `${method} ${pathname}: the ${operation.id} response schema changes the body`).toStrictEqual(body)
}

/** The body of a 2xx JSON answer of `operation`, parsed with (and typed by) its response schema. */
export async function readBody<O extends JsonOperation>(
  response: Response,
  operation: O,
): Promise<z.output<O['response']>> {
  expect(response.status, `${operation.id} answered ${response.status}`).toBe(operation.status ?? 200)
  return operation.response.parse(await response.json()) as z.output<O['response']>
}

export function uniqueEmail(): string {
  return `user-${randomUUID()}@example.test`
}
