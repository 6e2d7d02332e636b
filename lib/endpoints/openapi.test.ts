import { describe, expect, it } from 'vitest'
import { buildOpenApiDocument, OPERATIONS } from '@/lib/endpoints/openapi'

type Responses = Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>
type Paths = Record<string, Record<string, { operationId: string; responses: Responses }>>

describe('OpenAPI document', () => {
  const paths = buildOpenApiDocument().paths as Paths

  it.each(OPERATIONS.map((operation) => [operation.id, operation] as const))('describes the success answer of %s', (_id, operation) => {
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
  })

})
