import { describe, it } from 'vitest'
import { api } from '@/test/support/api-client'
import { createConfigurator, expectError, signUp } from '@/test/support/fixtures'

interface ErrorCase {
  name: string
  method: string
  path: (configuratorId: string) => string
  headers?: Record<string, string>
  body?: unknown
  status: number
  code: string
  message: RegExp
}

const json = { 'content-type': 'application/json' }

const CASES: ErrorCase[] = [
  {
    name: 'malformed JSON',
    method: 'POST',
    path: () => '/configurators',
    headers: json,
    body: '{"name": "Box",',
    status: 400,
    code: 'bad_request',
    message: /Malformed JSON/,
  },
  {
    name: 'an empty JSON body',
    method: 'POST',
    path: () => '/configurators',
    headers: json,
    body: '',
    status: 400,
    code: 'bad_request',
    message: /Malformed JSON/,
  },
  {
    name: 'a JSON array instead of an object',
    method: 'POST',
    path: () => '/configurators',
    headers: json,
    body: '[]',
    status: 422,
    code: 'unprocessable_entity',
    message: /object/,
  },
  {
    name: 'text/plain instead of JSON',
    method: 'POST',
    path: () => '/configurators',
    headers: { 'content-type': 'text/plain' },
    body: '{}',
    status: 415,
    code: 'unsupported_media_type',
    message: /application\/json/,
  },
  {
    name: 'no content type',
    method: 'PUT',
    path: (id) => `/configurators/${id}`,
    body: '{}',
    status: 415,
    code: 'unsupported_media_type',
    message: /application\/json/,
  },
  {
    name: 'a field of the wrong type',
    method: 'PUT',
    path: (id) => `/configurators/${id}`,
    headers: json,
    body: '{"description": 5}',
    status: 422,
    code: 'unprocessable_entity',
    message: /^description: /,
  },
  {
    name: 'several invalid fields',
    method: 'POST',
    path: () => '/configurators',
    headers: json,
    body: '{"name": 1, "mainFile": "/etc/passwd"}',
    status: 422,
    code: 'unprocessable_entity',
    message: /name: .*; mainFile: /,
  },
  {
    name: 'a JSON body over 1 MB',
    method: 'POST',
    path: () => '/configurators',
    headers: json,
    body: `{"name": "${'x'.repeat(1024 * 1024)}"}`,
    status: 413,
    code: 'payload_too_large',
    message: /limit/,
  },
  {
    name: 'an id that is not a UUID',
    method: 'GET',
    path: () => '/configurators/not-a-uuid',
    status: 404,
    code: 'not_found',
    message: /not-a-uuid/,
  },
  {
    name: 'an unknown configurator',
    method: 'GET',
    path: () => '/configurators/00000000-0000-4000-8000-000000000000',
    status: 404,
    code: 'not_found',
    message: /not found/,
  },
  {
    name: 'an unknown /api route',
    method: 'GET',
    path: () => '/no/such/route',
    status: 404,
    code: 'not_found',
    message: /No API route for GET \/api\/no\/such\/route/,
  },
  {
    name: 'an unknown nested route',
    method: 'POST',
    path: (id) => `/configurators/${id}/frobnicate`,
    status: 404,
    code: 'not_found',
    message: /No API route/,
  },
]

describe('error answers', () => {
  it.each(CASES.map((errorCase) => [errorCase.name, errorCase] as const))('%s', async (_name, errorCase) => {
    const owner = await signUp()
    const configuratorId = await createConfigurator(owner.token)
    const response = await api(errorCase.method, errorCase.path(configuratorId), {
      token: owner.token,
      headers: errorCase.headers,
      body: errorCase.body,
    })
    await expectError(response, errorCase.status, errorCase.code, errorCase.message)
  })
})
