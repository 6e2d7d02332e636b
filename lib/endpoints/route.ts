import { z } from 'zod'
import { AppError, toErrorResponse, ValidationError, zodFields } from '@/lib/api/errors'
import type { Operation } from '@/lib/api/operation'
import { isIntegerParam } from '@/lib/api/schemas'
import { readLimitedText } from '@/lib/api/read-body'
import { assertNoNul, parseUntrustedJson } from '@/lib/api/untrusted-json'
import { authenticate, requireSessionPrincipal, requireUser, type Principal } from '@/lib/auth/authenticate'
import type { User } from '@/lib/generated/prisma/client'
import { logger } from '@/lib/log'

const JSON_BODY_LIMIT = 1024 * 1024

type Infer<S, Fallback> = S extends z.ZodType ? z.infer<S> : Fallback

export interface HandlerContext<O extends Operation> {
  request: Request
  params: Infer<O['params'], Record<string, string>>
  query: Infer<O['query'], Record<string, never>>
  body: O['body'] extends 'raw' ? ReadableStream<Uint8Array> | null : Infer<O['body'], undefined>
  principal: O['auth'] extends 'session' ? Principal : Principal | null
  user: O['auth'] extends 'user' | 'admin' ? User : User | null
  /** Headers added to the answer the wrapper builds from the handler's result (e.g. set-cookie). */
  responseHeaders: Headers
}

/**
 * What a handler answers: the data of its response schema (sent as JSON with the operation's
 * status), a Response for file and stream operations, nothing for the rest (status, else 204).
 */
export type HandlerResult<O extends Operation> = O extends { response: infer R extends z.ZodType }
  ? z.output<R>
  : O extends { produces: string }
    ? Response
    : void

type RouteContext = { params: Promise<Record<string, string | string[]>> }

/**
 * Wraps a route handler: authenticates, parses params/query/body with the operation's zod
 * schemas and turns every thrown error into `{error: {code, message}}`. The handler's result is
 * typed by the operation (see HandlerResult), so a wrong shape does not compile.
 */
export function route<O extends Operation>(
  operation: O,
  handler: (context: HandlerContext<O>) => Promise<HandlerResult<O>>,
) {
  return async (request: Request, routeContext: RouteContext): Promise<Response> => {
    try {
      const principal = await authorize(operation, request)
      const user = principal?.kind === 'user' ? principal.user : null
      const params = parseParams(operation, await routeContext.params)
      const query = parseQuery(operation, new URL(request.url).searchParams)
      const body = operation.body === 'raw' ? request.body : await parseJsonBody(operation.body, request)
      const responseHeaders = new Headers()
      const result: unknown = await handler({
        request,
        params,
        query,
        body,
        principal,
        user,
        responseHeaders,
      } as HandlerContext<O>)
      if (result instanceof Response) return result
      if (result === undefined) return new Response(null, { status: operation.status ?? 204, headers: responseHeaders })
      return Response.json(result, { status: operation.status ?? 200, headers: responseHeaders })
    } catch (error) {
      const response = toErrorResponse(error)
      // Only a fault of ours is a 500: logged with the request it met, never shown.
      if (response.status === 500)
        logger.error({ err: error, requestId: request.headers.get('x-request-id') }, 'unexpected error')
      return response
    }
  }
}

async function authorize(operation: Operation, request: Request): Promise<Principal | null> {
  // A `key` query parameter replaces both headers, so they are not even looked at.
  if (operation.auth === 'session-or-key' && new URL(request.url).searchParams.has('key')) return null
  if (operation.auth === 'optional')
    return authenticate(request).catch((error: unknown) => (error instanceof AppError ? null : Promise.reject(error)))
  const principal = await authenticate(request)
  switch (operation.auth) {
    case 'none':
      return principal
    case 'user':
      return requireUser(principal)
    case 'admin': {
      const admin = requireUser(principal)
      if (admin.user.role !== 'admin') throw new AppError('forbidden', 'Only admins may do this')
      return admin
    }
    case 'session':
    case 'session-or-key':
      return requireSessionPrincipal(principal, request.headers)
  }
}

// A malformed id can never name an existing resource, so it is answered like an unknown one; a
// number out of its range is a wrong value (422 naming it), as in a query.
function parseParams(operation: Operation, raw: Record<string, string | string[]>) {
  if (!operation.params) return raw
  const result = operation.params.safeParse(raw)
  if (result.success) return result.data
  const field = result.error.issues[0]?.path[0]
  if (isIntegerParam(operation.params.shape[String(field)] as z.ZodType | undefined))
    throw new ValidationError(zodFields(result.error))
  throw new AppError('not_found', `No resource with ${String(field)} '${String(raw[String(field)])}'`)
}

function parseQuery(operation: Operation, searchParams: URLSearchParams) {
  if (!operation.query) return {}
  const query = Object.fromEntries(searchParams)
  assertNoNul(query, ['query'])
  const result = operation.query.safeParse(query)
  if (!result.success) throw new ValidationError(zodFields(result.error, ['query']))
  return result.data
}

export async function parseJsonBody(schema: z.ZodType | undefined, request: Request): Promise<unknown> {
  if (!schema) return undefined
  const contentType = request.headers.get('content-type') ?? ''
  if (!/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType)) {
    throw new AppError('unsupported_media_type', 'Content-Type must be application/json')
  }
  const json = parseUntrustedJson(await readLimitedText(request, JSON_BODY_LIMIT))
  // Checked on the whole body, before the schema: any string may end up stored.
  assertNoNul(json)
  const result = schema.safeParse(json)
  if (!result.success) throw new ValidationError(zodFields(result.error))
  return result.data
}
