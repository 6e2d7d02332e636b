import type { z } from 'zod'
import { fillPath, type Method } from '@/lib/api/operation'
import { apiRequest, type ApiRequestInit } from '@/lib/client/api-client'
import type { OperationId, Operations } from '@/lib/endpoints/operations'
import { ROUTES } from '@/lib/endpoints/routes'

// One way to call the API, typed by the operation objects: the pages (over same-origin fetch),
// the tests (over the route handlers in their process) and the benchmarks (over HTTP) name an
// operation and its inputs, never a hand-written path.

type Schema<K extends OperationId, F extends string> = Operations[K] extends {
  readonly [P in F]: infer S extends z.ZodType
}
  ? S
  : never

/** Path and query parameters of operation K; `params` is required where its path has any. */
export type OperationInput<K extends OperationId> = ([Schema<K, 'params'>] extends [never]
  ? { params?: undefined }
  : { params: z.input<Schema<K, 'params'>> }) & {
  query?: [Schema<K, 'query'>] extends [never] ? undefined : z.input<Schema<K, 'query'>>
}

/** The JSON body operation K takes (for a raw body that may be JSON, such as createSession's, the JSON it reads). */
export type OperationBody<K extends OperationId> = [Schema<K, 'body'>] extends [never]
  ? z.input<Schema<K, 'requestSchema'>>
  : z.input<Schema<K, 'body'>>

/** What a 2xx JSON answer of operation K holds. */
export type OperationResult<K extends OperationId> = z.output<Schema<K, 'response'>>

/** The arguments after the operation's id: `input` may be left out where K has no path parameters. */
export type InputArgs<K extends OperationId, I> = object extends OperationInput<K> ? [input?: I] : [input: I]

/** `/configurators/abc/files/configurator/main.scad?x=1`: the path of K under /api (lib/api/operation.ts fillPath), then its query. */
export function operationPath<K extends OperationId>(id: K, ...[input]: InputArgs<K, OperationInput<K>>): string {
  const { params, query } = input ?? {}
  const path = fillPath(ROUTES[id].path, params ?? {})
  const search = new URLSearchParams(
    Object.entries(query ?? {}).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, String(value as string | number | boolean)]],
    ),
  )
  return search.size > 0 ? `${path}?${search}` : path
}

/** The operation's path on this site (under /api), for a link or a message. */
export function apiPath<K extends OperationId>(id: K, ...input: InputArgs<K, OperationInput<K>>): string {
  return `/api${operationPath(id, ...input)}`
}

export function operationMethod(id: OperationId): Method {
  return ROUTES[id].method
}

/**
 * React Query's key of K's answer: its path's segments, then its query. A key is a prefix of
 * the keys below it, so invalidating a configurator refreshes its files and applications too.
 */
export function operationKey<K extends OperationId>(id: K, ...[input]: InputArgs<K, OperationInput<K>>): unknown[] {
  const [path = ''] = operationPath(id, { params: input?.params } as OperationInput<K>).split('?')
  return [...path.split('/').filter(Boolean), ...(input?.query ? [input.query] : [])]
}

export type CallInit<K extends OperationId> = OperationInput<K> &
  Omit<ApiRequestInit, 'method' | 'json'> & { json?: OperationBody<K> }

/** Operation K from the browser: its Response; any answer but 2xx throws ApiError. */
export function callApi<K extends OperationId>(id: K, ...[init]: InputArgs<K, CallInit<K>>): Promise<Response> {
  return apiRequest(operationPath(id, init as OperationInput<K>), { ...init, method: operationMethod(id) })
}

/** Operation K's JSON answer from the browser (undefined for 204). */
export async function callApiJson<K extends OperationId>(
  id: K,
  ...args: InputArgs<K, CallInit<K>>
): Promise<OperationResult<K>> {
  const response = await callApi(id, ...args)
  return (response.status === 204 ? undefined : await response.json()) as OperationResult<K>
}
