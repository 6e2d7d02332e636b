import type { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { type ClientErrorCode, ERROR_STATUS, isIntegerParam } from '@/lib/api/schemas'
import { buildOpenApiDocument, clientErrors, OPERATIONS } from '@/lib/endpoints/openapi'
import { type OperationId, operations } from '@/lib/endpoints/operations'

type Response = {
  $ref?: string
  content?: Record<string, { schema: Record<string, unknown> }>
  headers?: Record<string, unknown>
}
type Responses = Record<string, Response>
type Parameter = { name: string; in: string; schema: { type?: string; minimum?: number; maximum?: number } }
type Paths = Record<
  string,
  Record<string, { operationId: string; parameters: Parameter[]; responses: Responses; security: unknown[] }>
>

describe('OpenAPI document', () => {
  const document = buildOpenApiDocument()
  const paths = document.paths as Paths
  const errorResponses = document.components.responses as Responses

  it.each(OPERATIONS.map((operation) => [operation.id, operation] as const))(
    'describes the success answer of %s',
    (_id, operation) => {
      const described = paths[operation.path]?.[operation.method.toLowerCase()]
      expect(described?.operationId).toBe(operation.id)
      const success = Object.entries(described?.responses ?? {}).filter(([status]) => status.startsWith('2'))
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

  it.each(OPERATIONS.map((operation) => [operation.id, operation] as const))(
    'lists the 4xx answers of %s, each with the error body',
    (_id, operation) => {
      const { responses } = paths[operation.path]![operation.method.toLowerCase()]!
      const errors = Object.entries(responses).filter(([status]) => status.startsWith('4'))
      expect(errors.map(([status]) => Number(status))).toEqual(
        clientErrors(operation).map((code) => ERROR_STATUS[code]),
      )
      for (const [status, { $ref }] of errors) {
        const code = $ref?.replace('#/components/responses/', '') as ClientErrorCode
        expect(ERROR_STATUS[code]).toBe(Number(status))
        expect(errorResponses[code]?.content?.['application/json']?.schema).toEqual({
          $ref: '#/components/schemas/Error',
        })
      }
    },
  )

  it('lists for each operation only the errors of its handler that its definition does not imply', () => {
    for (const operation of OPERATIONS) {
      const implied = clientErrors({ ...operation, errors: undefined })
      expect(operation.errors?.filter((code) => implied.includes(code)) ?? [], operation.id).toEqual([])
    }
  })

  it('lists what each kind of operation is refused with', () => {
    const statuses = (id: OperationId) => clientErrors(operations[id]).map((code) => ERROR_STATUS[code])
    // Even where no token is needed, a malformed one is refused.
    expect(statuses('getHealth')).toEqual([401])
    expect(statuses('login')).toEqual([400, 401, 403, 413, 415, 422, 429])
    expect(statuses('getConfigurator')).toEqual([400, 401, 403, 404])
    expect(statuses('uploadConfiguratorFile')).toEqual([400, 401, 403, 404, 409, 412, 413, 422])
    expect(statuses('setParameters')).toEqual([400, 401, 403, 404, 413, 415, 422, 429])
    expect(statuses('getModel')).toEqual([400, 401, 403, 404, 409, 422, 429])
  })

  it('says when to try again after a 429', () => {
    expect(errorResponses.too_many_requests?.headers?.['Retry-After']).toMatchObject({
      required: true,
      schema: { type: 'integer', minimum: 1 },
    })
  })

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
