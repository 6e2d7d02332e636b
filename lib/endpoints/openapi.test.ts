import type { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { isIntegerParam } from '@/lib/api/schemas'
import { buildOpenApiDocument, OPERATIONS } from '@/lib/endpoints/openapi'

type Responses = Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>
type Parameter = { name: string; in: string; schema: { type?: string; minimum?: number; maximum?: number } }
type Paths = Record<
  string,
  Record<string, { operationId: string; parameters: Parameter[]; responses: Responses; security: unknown[] }>
>

describe('OpenAPI document', () => {
  const paths = buildOpenApiDocument().paths as Paths

  it.each(OPERATIONS.map((operation) => [operation.id, operation] as const))(
    'describes the success answer of %s',
    (_id, operation) => {
      const described = paths[operation.path]?.[operation.method.toLowerCase()]
      expect(described?.operationId).toBe(operation.id)
      const success = Object.entries(described?.responses ?? {}).filter(([status]) => status !== 'default')
      expect(success).toHaveLength(1)
      const [status, response] = success[0]!
      if (operation.response) {
        expect(status).toBe(String(operation.status ?? 200))
        expect(response.content?.['application/json']?.schema).toMatchObject({ type: expect.any(String) })
      } else if (operation.produces) {
        expect(Object.keys(response.content ?? {})).toEqual([operation.produces])
      } else {
        expect(response.content).toBeUndefined()
      }
    },
  )

  // Every integer a path or query carries (release numbers, image sizes): decimal digits within the
  // documented range, nothing else that Number() would read (hex, signs, spaces, exponents), never
  // past a database integer. (Camera coordinates are real numbers, documented as such.)
  const integerFields = OPERATIONS.flatMap((operation) =>
    (['params', 'query'] as const).flatMap((part) =>
      Object.entries(operation[part]?.shape ?? {}).map(([name, schema]) => ({
        id: `${operation.id} ${part}.${name}`,
        operation,
        name,
        schema: schema as z.ZodType,
      })),
    ),
  ).filter(
    ({ operation, name, schema }) =>
      isIntegerParam(schema) ||
      paths[operation.path]?.[operation.method.toLowerCase()]?.parameters.find((parameter) => parameter.name === name)
        ?.schema.type === 'integer',
  )

  it.each(OPERATIONS.map((operation) => [operation.id, operation] as const))(
    'states who may call %s',
    (_id, operation) => {
      const { security } = paths[operation.path]![operation.method.toLowerCase()]!
      if (operation.auth === 'none') expect(security).toEqual([])
      else expect(security.length).toBeGreaterThan(0)
    },
  )

  it('finds the integers in paths and queries', () => {
    expect(integerFields.map(({ id }) => id)).toEqual(
      expect.arrayContaining(['getRelease params.number', 'compareReleases query.from', 'getRendererImage query.w']),
    )
  })

  it.each(integerFields.map((field) => [field.id, field] as const))(
    '%s is a decimal integer in its documented range',
    (_id, { operation, name, schema }) => {
      expect(isIntegerParam(schema)).toBe(true)
      const { minimum, maximum } = paths[operation.path]![operation.method.toLowerCase()]!.parameters.find(
        (parameter) => parameter.name === name,
      )!.schema
      expect(maximum).toBeLessThanOrEqual(2 ** 31 - 1)
      for (const valid of [minimum!, maximum!]) expect(schema.parse(String(valid))).toBe(valid)
      for (const invalid of [
        String(minimum! - 1),
        String(maximum! + 1),
        '0x1',
        ' 1',
        '1 ',
        '+1',
        '-1',
        '1e1',
        '1.0',
        '9007199254740991',
        '',
      ]) {
        expect(schema.safeParse(invalid).success, invalid).toBe(false)
      }
    },
  )
})
