import { z } from 'zod'
import { type ClientErrorCode, ERROR_STATUS, isIntegerParam, ZErrorBody } from '@/lib/api/schemas'
import type { Operation } from '@/lib/api/operation'
import { operations } from '@/lib/endpoints/operations'

export const OPERATIONS: Operation[] = Object.values(operations)

type JsonSchema = Record<string, unknown>

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema
  return rest
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }

/** Each 4xx answer's description, in the order of their status. */
const CLIENT_ERRORS: Record<ClientErrorCode, string> = {
  bad_request: 'Malformed: JSON that does not parse, a path with a malformed encoding or a dot segment, a broken zip',
  unauthorized: 'A token that is missing where one is needed, malformed, expired or revoked; wrong credentials',
  forbidden: 'Credentials without the right to this (the message says which)',
  not_found: "No such resource, or someone else's",
  method_not_allowed: 'Not with this method',
  conflict:
    'In conflict with the current state (the message says which; `fields` lists the choices where one is asked)',
  precondition_failed: 'If-Match holds only weak tags, which never match',
  payload_too_large: 'The body is larger than its limit',
  unsupported_media_type: 'Content-Type is not application/json',
  unprocessable_entity: 'Invalid values: `fields` names each',
  too_many_requests: 'A limit is used up: try again after Retry-After seconds',
}

const ERROR_RESPONSES = Object.fromEntries(
  Object.entries(CLIENT_ERRORS).map(([code, description]) => [
    code,
    {
      description,
      ...(code === 'too_many_requests' && {
        headers: {
          'Retry-After': {
            description: 'seconds until the limit allows it',
            required: true,
            schema: { type: 'integer', minimum: 1 },
          },
        },
      }),
      content: ERROR_CONTENT,
    },
  ]),
)

/**
 * The 4xx answers an operation can give: those that follow from what it declares (route() in
 * lib/endpoints/route.ts authenticates and parses, server.ts refuses hostile paths), then the
 * handler's own (`errors`). In the order of their status.
 */
export function clientErrors(operation: Operation): ClientErrorCode[] {
  const hasPathParams = operation.path.includes('{')
  const takesJson = (operation.body !== undefined && operation.body !== 'raw') || operation.requestSchema !== undefined
  const hasIntegerParam = Object.values(operation.params?.shape ?? {}).some((schema) =>
    isIntegerParam(schema as z.ZodType),
  )
  const implied: Record<ClientErrorCode, boolean> = {
    // Malformed JSON; a parameter with a malformed encoding or a dot segment (server.ts).
    bad_request: takesJson || hasPathParams,
    // Every request is authenticated: a malformed or stale token is refused even where none is needed.
    unauthorized: operation.auth !== 'optional',
    // A token of the wrong kind or application; for a change, also a session cookie sent from another site.
    forbidden: operation.auth !== 'optional' && (operation.auth !== 'none' || operation.method !== 'GET'),
    // A malformed id is answered as an unknown one.
    not_found: hasPathParams,
    method_not_allowed: false,
    conflict: false,
    precondition_failed: false,
    // A JSON body is read up to 1 MB, an upload up to its own limit.
    payload_too_large: operation.body !== undefined,
    unsupported_media_type: takesJson,
    unprocessable_entity: takesJson || operation.query !== undefined || hasIntegerParam,
    too_many_requests: false,
  }
  return (Object.keys(CLIENT_ERRORS) as ClientErrorCode[]).filter(
    (code) => implied[code] || operation.errors?.includes(code),
  )
}

const SECURITY = {
  optional: [{}, { bearer: [] }],
  user: [{ bearer: [] }],
  admin: [{ bearer: [] }],
  session: [{ bearer: [] }, { bearer: [], apiKey: [] }],
  'session-or-key': [{ bearer: [] }, { bearer: [], apiKey: [] }, { sessionKey: [] }],
}

/** A path parameter's schema: a string (ids, file paths), or an integer with its range. */
function paramSchema(operation: Operation, name: string): JsonSchema {
  const schema = operation.params?.shape[name] as z.ZodType | undefined
  return schema && isIntegerParam(schema) ? jsonSchema(schema, 'input') : { type: 'string' }
}

function describeOperation(operation: Operation) {
  const pathParams = [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: paramSchema(operation, name!),
  }))
  const queryParams = operation.query
    ? Object.entries(operation.query.shape).map(([name, schema]) => ({
        name,
        in: 'query',
        required: !(schema as z.ZodType).safeParse(undefined).success,
        schema: jsonSchema(schema as z.ZodType, 'input'),
      }))
    : []
  const status = String(operation.status ?? (operation.response || operation.produces ? 200 : 204))
  const content = operation.response
    ? { 'application/json': { schema: jsonSchema(operation.response, 'output') } }
    : operation.produces
      ? { [operation.produces]: { schema: { type: 'string', format: 'binary' } } }
      : undefined
  return {
    operationId: operation.id,
    summary: operation.summary,
    tags: [operation.tag],
    // A public operation says so (`[]`), where a missing list would inherit a document-wide one.
    security: operation.auth === 'none' ? [] : SECURITY[operation.auth],
    parameters: [...pathParams, ...queryParams],
    ...(operation.body && {
      requestBody: {
        required: true,
        content:
          operation.body !== 'raw'
            ? { 'application/json': { schema: jsonSchema(operation.body, 'input') } }
            : operation.requestSchema
              ? {
                  'application/json': { schema: jsonSchema(operation.requestSchema, 'input') },
                  'application/zip': { schema: { type: 'string', format: 'binary' } },
                }
              : { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
    }),
    responses: {
      [status]: { description: 'Success', ...(content && { content }) },
      ...Object.fromEntries(
        clientErrors(operation).map((code) => [ERROR_STATUS[code], { $ref: `#/components/responses/${code}` }]),
      ),
      default: { description: 'A fault of the server or of a service it needs (5xx)', content: ERROR_CONTENT },
    },
  }
}

/** OpenAPI 3.1 document generated from the same operations and zod schemas the handlers parse with. */
export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const operation of OPERATIONS) {
    paths[operation.path] = { ...paths[operation.path], [operation.method.toLowerCase()]: describeOperation(operation) }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Paraform API',
      version: '1.0.0',
      description:
        'Parametric product configurator service. A deliberate addition to the interface: drafts and releases. Until a ' +
        'configurator is first published (POST /configurators/{id}/releases), its files and settings are what new sessions get, ' +
        'exactly as the interface says. Once published, the same ' +
        'endpoints edit its draft: new sessions get its current release, ' +
        "each session keeps the release it started with, and the owner opens the draft with createSession's `draft: true`.",
    },
    servers: [{ url: '/api' }],
    components: {
      schemas: { Error: jsonSchema(ZErrorBody, 'output') },
      responses: ERROR_RESPONSES,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
        sessionKey: { type: 'apiKey', in: 'query', name: 'key' },
      },
    },
    paths,
  }
}
