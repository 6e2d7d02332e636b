import { describe, expect, it } from 'vitest'
import { buildOpenApiDocument } from '@/lib/endpoints/openapi'
import { call, uniqueEmail } from '@/test/support/api-client'
import { expectError, PASSWORD, signUp } from '@/test/support/fixtures'

// A limit the OpenAPI document states holds at the route: at the limit the request is taken, one
// past it is 422 naming the field (lib/endpoints/request-limits.test.ts checks every limit on the
// operations' schemas).

type Described = {
  parameters: { name: string; schema: { maxLength?: number } }[]
  requestBody?: { content: Record<string, { schema: { properties: Record<string, { maxLength?: number }> } }> }
}
const paths = buildOpenApiDocument().paths as Record<string, Record<string, Described>>

function bodyLimit(path: string, method: string, field: string): number {
  return paths[path]![method]!.requestBody!.content['application/json']!.schema.properties[field]!.maxLength!
}

describe('request limits of the OpenAPI document', () => {
  it("a configurator's name", async () => {
    const { token } = await signUp()
    const limit = bodyLimit('/configurators', 'post', 'name')
    const create = (name: string) => call('createConfigurator', { token, body: { name, mainFile: 'main.scad' } })
    expect((await create('a'.repeat(limit))).status).toBe(201)
    const error = await expectError(await create('a'.repeat(limit + 1)), 422, 'unprocessable_entity')
    expect(error.fields?.map((field) => field.path)).toEqual([['name']])
  })

  it("a user's email", async () => {
    const admin = await signUp('admin')
    const limit = bodyLimit('/users', 'post', 'email')
    const create = (email: string) => call('createUser', { token: admin.token, body: { email, password: PASSWORD } })
    const email = (length: number) => uniqueEmail().padStart(length, 'a')
    expect((await create(email(limit))).status).toBe(201)
    const error = await expectError(await create(email(limit + 1)), 422, 'unprocessable_entity')
    expect(error.fields?.map((field) => field.path)).toEqual([['email']])
  })

  it('a query parameter, named under query', async () => {
    const admin = await signUp('admin')
    const limit = paths['/libraries']!.post!.parameters.find((parameter) => parameter.name === 'name')!.schema
      .maxLength!
    const response = await call('installLibrary', {
      token: admin.token,
      query: { name: 'a'.repeat(limit + 1) },
      body: new Uint8Array(),
    })
    const error = await expectError(response, 422, 'unprocessable_entity')
    expect(error.fields?.map((field) => field.path)).toEqual([['query', 'name']])
  })
})
