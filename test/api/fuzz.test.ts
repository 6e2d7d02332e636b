import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ZErrorBody } from '@/lib/api/schemas'
import { api } from '@/test/support/api-client'
import { createConfigurator, registerApplication, signUp } from '@/test/support/fixtures'

const segment = fc.oneof(
  fc.constantFrom(
    'configurators',
    'applications',
    'files',
    'configurator',
    'renderer',
    'auth',
    'login',
    'users',
    'anonymous',
    'main.scad',
  ),
  fc.constantFrom('%2e%2e', '%2F', '%5C', '%00', '%', '%E0%A4', '..', '.', '~', 'a'.repeat(300)),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
)

const jsonValue = fc.jsonValue({ maxDepth: 3 })
const body = fc.oneof(
  fc.constant(undefined),
  jsonValue,
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }),
  fc.record(
    {
      name: jsonValue,
      mainFile: jsonValue,
      extraSettings: jsonValue,
      domain: jsonValue,
      email: jsonValue,
      password: jsonValue,
    },
    { requiredKeys: [] },
  ),
)
const headerValue = fc.oneof(
  fc.string({ maxLength: 40 }).filter((value) => /^[\x20-\x7e]*$/.test(value)),
  fc.constantFrom('application/json', 'text/plain', 'Bearer x.y', 'Bearer', 'configurators/x/files/../../etc/passwd'),
)
const headers = fc.dictionary(
  fc.constantFrom('content-type', 'authorization', 'x-api-key', 'origin', 'service-copy-source', 'content-length'),
  headerValue,
  { maxKeys: 4 },
)
const query = fc.dictionary(fc.constantFrom('key', 'type', 'w', 'h', 'filename', 'x'), fc.string({ maxLength: 10 }), {
  maxKeys: 3,
})

describe('property: random requests never cause a server error', () => {
  it('answers every random method, path, header, query and body below 500 with a well-formed body', async () => {
    const owner = await signUp()
    const configuratorId = await createConfigurator(owner.token)
    const { UUID: applicationId } = await registerApplication(owner.token, configuratorId)
    const knownPrefixes = [
      '',
      `/configurators/${configuratorId}`,
      `/configurators/${configuratorId}/files`,
      `/applications/${applicationId}`,
    ]

    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        fc.constantFrom(...knownPrefixes),
        fc.array(segment, { maxLength: 4 }),
        headers,
        query,
        body,
        fc.boolean(),
        async (method, prefix, segments, randomHeaders, randomQuery, randomBody, isSignedIn) => {
          const search = new URLSearchParams(randomQuery).toString()
          const path = `${prefix}/${segments.join('/')}${search ? `?${search}` : ''}`
          const response = await api(method, path, {
            headers: { ...randomHeaders, ...(isSignedIn && { authorization: `Bearer ${owner.token}` }) },
            body: method === 'GET' ? undefined : randomBody,
          })
          expect(response.status, `${method} ${path}`).toBeLessThan(500)
          if (response.status >= 400 && response.status !== 405) {
            const { error } = ZErrorBody.strict().parse(await response.json())
            expect(error.fields !== undefined, `${method} ${path}: fields on a 422 only`).toBe(response.status === 422)
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
