import { z } from 'zod'
import { isIntegerParam, ZErrorBody } from '@/lib/api/schemas'
import type { Operation } from '@/lib/api/operation'
import { operations } from '@/lib/endpoints/operations'

export const OPERATIONS: Operation[] = Object.values(operations)

type JsonSchema = Record<string, unknown>

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema
  return rest
}

const ERROR_RESPONSE = {
  description: 'Error: {error: {code, message}}',
  content: { 'application/json': { schema: jsonSchema(ZErrorBody, 'output') } },
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
    responses: { [status]: { description: 'Success', ...(content && { content }) }, default: ERROR_RESPONSE },
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
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
        sessionKey: { type: 'apiKey', in: 'query', name: 'key' },
      },
    },
    paths,
  }
}
