import { strToU8, zipSync } from 'fflate'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, uniqueEmail } from '@/test/support/api-client'
import { expectError, openSession, PASSWORD, signUp } from '@/test/support/fixtures'

// Strings PostgreSQL cannot store and JSON nested to overflow a stack, against several operations.

const MODEL = 'label = "tag";\nwidth = 10; // [1:100]\ncube(width);'

let owner: { token: string }
let admin: { token: string }
let configuratorId: string
let sessionId: string
let rendererId: string

beforeAll(async () => {
  const opened = await openSession(MODEL)
  owner = opened.owner
  configuratorId = opened.configuratorId
  sessionId = opened.session.id
  rendererId = opened.session.renderSessions[0]!.sessionId
  admin = await signUp('admin')
})

const restore = (parameters: string) =>
  api('POST', `/configsessions?configuratorId=${configuratorId}`, {
    token: owner.token,
    // Stored, not deflated: deep brackets compress beyond the restore's ratio limit.
    body: zipSync({ 'parameters.json': strToU8(parameters) }, { level: 0 }),
    headers: { 'content-type': 'application/zip' },
  })

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`
}

describe('a NUL character in a stored string', () => {
  const cases: [string, () => Promise<Response>, RegExp][] = [
    [
      'a configurator name',
      () => api('POST', '/configurators', { token: owner.token, body: { name: 'Box\0', mainFile: 'main.scad' } }),
      /^name: must not contain NUL characters$/,
    ],
    [
      'a configurator description',
      () => api('PUT', `/configurators/${configuratorId}`, { token: owner.token, body: { description: 'a\u0000b' } }),
      /^description: must not contain NUL characters$/,
    ],
    [
      'a key of the quality settings',
      () =>
        api('PUT', `/configurators/${configuratorId}`, {
          token: owner.token,
          body: { extraSettings: { quality: { preview: { '$fn\0': 24 } } } },
        }),
      /^extraSettings\.quality\.preview: keys must not contain NUL characters$/,
    ],
    [
      'an application domain',
      () =>
        api('POST', `/configurators/${configuratorId}/applications`, {
          token: owner.token,
          body: { name: 'Shop', domain: 'shop\0.example.com' },
        }),
      /^domain: must not contain NUL characters$/,
    ],
    [
      'a new user email',
      () => api('POST', '/users', { token: admin.token, body: { email: `a\0${uniqueEmail()}`, password: PASSWORD } }),
      /^email: must not contain NUL characters$/,
    ],
    [
      'a login email',
      () => api('POST', '/auth/login', { body: { email: 'a\0@example.test', password: PASSWORD } }),
      /^email: must not contain NUL characters$/,
    ],
    [
      'a parameter value',
      () =>
        api('PUT', `/configsessions/${sessionId}/parameters`, {
          token: owner.token,
          body: { label: { value: 'a\0' } },
        }),
      /^label\.value: must not contain NUL characters$/,
    ],
    [
      'a scene setting',
      () =>
        api('PUT', `/configsessions/${sessionId}/renderers/${rendererId}/scene`, {
          token: owner.token,
          body: { materials: { '0': { vertexShader: 'a\0.vert' } } },
        }),
      /^materials\.0\.vertexShader: must not contain NUL characters$/,
    ],
    [
      'a session file name in the query',
      () => api('POST', `/configsessions/${sessionId}/files?name=logo%00.svg`, { token: owner.token, body: '<svg/>' }),
      /^query\.name: must not contain NUL characters$/,
    ],
    [
      'a parameter value in a restored zip',
      () => restore(JSON.stringify({ label: { type: 'string', value: 'a\0' } })),
      /^parameters\.json\.label\.value: must not contain NUL characters$/,
    ],
  ]

  it.each(cases)('in %s answers 422 naming the field', async (_case, call, message) => {
    await expectError(await call(), 422, 'unprocessable_entity', message)
  })

  it('stores nothing', async () => {
    const configurator = (await (
      await api('GET', `/configurators/${configuratorId}`, { token: owner.token })
    ).json()) as { description?: string }
    expect(configurator.description ?? '').not.toContain('\0')
    const parameters = (await (
      await api('GET', `/configsessions/${sessionId}/parameters`, { token: owner.token })
    ).json()) as Record<string, { value: unknown }>
    expect(parameters.label?.value).toBe('tag')
  })
})

describe('deeply nested JSON', () => {
  it.each([65, 10_000, 400_000])('%i levels answer 400', async (depth) => {
    const body = `{"name": "Deep", "mainFile": "main.scad", "extraSettings": ${nested(depth - 1)}}`
    await expectError(
      await api('POST', '/configurators', {
        token: owner.token,
        body,
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'bad_request',
      /nested deeper than 64 levels/,
    )
  })

  it('in scene settings, whose unknown keys are kept, answer 400', async () => {
    const body = `{"materials": {}, "extra": ${nested(10_000)}}`
    const response = await api('PUT', `/configsessions/${sessionId}/renderers/${rendererId}/scene`, {
      token: owner.token,
      body,
      headers: { 'content-type': 'application/json' },
    })
    await expectError(response, 400, 'bad_request', /nested deeper than 64 levels/)
  })

  it('64 levels are parsed and validated as usual', async () => {
    await expectError(
      await api('POST', '/configurators', {
        token: owner.token,
        body: nested(64),
        headers: { 'content-type': 'application/json' },
      }),
      422,
      'unprocessable_entity',
    )
    await expectError(
      await api('POST', '/configurators', {
        token: owner.token,
        body: nested(65),
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'bad_request',
    )
  })

  it('counts no brackets inside strings', async () => {
    const name = `\\"${'[{'.repeat(30)}`
    const response = await api('POST', '/configurators', {
      token: owner.token,
      body: `{"name": "${name}", "mainFile": "main.scad"}`,
      headers: { 'content-type': 'application/json' },
    })
    expect(response.status).toBe(201)
  })

  it('in a restored parameters.json answers 422', async () => {
    await expectError(
      await restore(`{"width": {"value": 20, "note": ${nested(10_000)}}}`),
      422,
      'unprocessable_entity',
      /^parameters\.json: .*nested deeper than 64 levels/,
    )
  })
})
