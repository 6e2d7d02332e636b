import type { z } from 'zod'
import { describe, expect, it } from 'vitest'
import type { Operation } from '@/lib/api/operation'
import { buildOpenApiDocument, OPERATIONS } from '@/lib/endpoints/openapi'

// Every maxLength and maxItems the document gives a request (JSON bodies and query parameters)
// is the one the operation's own schema enforces: a value at the limit passes, one past it is
// refused naming that field, which route() answers with 422 and the field in `fields`.

interface JsonSchema {
  type?: string
  format?: string
  const?: unknown
  maxLength?: number
  maxItems?: number
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  additionalProperties?: JsonSchema | boolean
  propertyNames?: { pattern?: string }
  oneOf?: JsonSchema[]
}

type Path = (string | number)[]

interface Limit {
  id: string
  schema: z.ZodType
  path: Path
  /** The request with this field `length` long (characters or items): only the field, and what selects its branch. */
  request: (length: number) => unknown
  limit: number
}

/** A string of `length` that passes the field's other checks: an address, a URL, else a path of 255-character names. */
function text(schema: JsonSchema, length: number): string {
  if (schema.format === 'email') return `${'a'.repeat(length - '@example.com'.length)}@example.com`
  if (schema.format === 'uri') return `https://example.com/${'a'.repeat(length - 'https://example.com/'.length)}`
  return Array.from({ length }, (_, at) => (at % 256 === 255 ? '/' : 'a')).join('')
}

/** A key a record takes: a variable name or a part index. */
function recordKey(schema: JsonSchema): string {
  const pattern = schema.propertyNames?.pattern
  return ['k', '0'].find((key) => !pattern || new RegExp(pattern).test(key))!
}

/** Each limit in `schema`, found at `path`; `wrap` puts a value of the field into a whole request. */
function findLimits(schema: JsonSchema, path: Path, wrap: (value: unknown) => unknown): Omit<Limit, 'id' | 'schema'>[] {
  const limits: Omit<Limit, 'id' | 'schema'>[] = []
  if (schema.maxLength !== undefined)
    limits.push({ path, limit: schema.maxLength, request: (length) => wrap(text(schema, length)) })
  if (schema.maxItems !== undefined)
    limits.push({ path, limit: schema.maxItems, request: (length) => wrap(Array.from({ length }, () => null)) })
  for (const branch of schema.oneOf ?? []) limits.push(...findLimits(branch, path, wrap))
  // An object's constants (a union's discriminator) come along, so the field's own branch is checked.
  const constants = Object.fromEntries(
    Object.entries(schema.properties ?? {}).flatMap(([name, property]) =>
      property.const === undefined ? [] : [[name, property.const]],
    ),
  )
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    limits.push(...findLimits(property, [...path, name], (value) => wrap({ ...constants, [name]: value })))
  if (typeof schema.additionalProperties === 'object') {
    const key = recordKey(schema)
    limits.push(...findLimits(schema.additionalProperties, [...path, key], (value) => wrap({ [key]: value })))
  }
  if (schema.items) limits.push(...findLimits(schema.items, [...path, 0], (value) => wrap([value])))
  return limits
}

type Described = {
  parameters: { name: string; in: string; schema: JsonSchema }[]
  requestBody?: { content: Record<string, { schema: JsonSchema }> }
}
const paths = buildOpenApiDocument().paths as Record<string, Record<string, Described>>

function limitsOf(operation: Operation): Limit[] {
  const described = paths[operation.path]![operation.method.toLowerCase()]!
  const body = operation.body !== 'raw' ? operation.body : operation.requestSchema
  const bodySchema = described.requestBody?.content['application/json']?.schema
  const inBody =
    body && bodySchema
      ? findLimits(bodySchema, [], (value) => value).map((limit) => ({
          ...limit,
          id: `${operation.id} ${['body', ...limit.path].join('.')}`,
          schema: body,
        }))
      : []
  const inQuery = described.parameters
    .filter((parameter) => parameter.in === 'query')
    .flatMap((parameter) =>
      findLimits(parameter.schema, [parameter.name], (value) => ({ [parameter.name]: value })).map((limit) => ({
        ...limit,
        id: `${operation.id} query.${limit.path.join('.')}`,
        schema: operation.query!,
      })),
    )
  return [...inBody, ...inQuery]
}

/** The paths of the issues parsing `request` finds: the fields a 422 would name. */
function refusedFields(schema: z.ZodType, request: unknown): string[] {
  return (schema.safeParse(request).error?.issues ?? []).map((issue) => JSON.stringify(issue.path))
}

describe('request limits in the OpenAPI document', () => {
  const limits = OPERATIONS.flatMap(limitsOf)

  it('finds the limits of bodies and queries, nested ones too', () => {
    expect(limits.map(({ id }) => id)).toEqual(
      expect.arrayContaining([
        'createUser body.email',
        'createConfigurator body.name',
        'createConfigurator body.mainFile',
        'createConfigurator body.extraSettings.manufacturing.parts',
        'createConfigurator body.extraSettings.manufacturing.parts.0.material.name',
        'prefetchModels body.candidates',
        'updateScene body.materials.0.vertexShader',
        'updateScene body.materials.0.uniforms.k.value.url',
        'installLibrary query.name',
        'getModel query.key',
      ]),
    )
  })

  it.each(limits.map((limit) => [limit.id, limit.limit, limit] as const))(
    '%s: %i passes, one more is refused naming the field',
    (_id, _limit, { schema, path, request, limit }) => {
      const field = JSON.stringify(path)
      expect(refusedFields(schema, request(limit))).not.toContain(field)
      expect(refusedFields(schema, request(limit + 1))).toContain(field)
    },
  )
})
