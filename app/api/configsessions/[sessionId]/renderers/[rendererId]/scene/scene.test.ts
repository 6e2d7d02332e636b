import { unzipSync } from 'fflate'
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '@/test/support/api-client'
import { expectError, openSession, registerApplication, signUp } from '@/test/support/fixtures'

const MODEL = 'color("tan") cube(10); color("red") translate([0, 0, 10]) cube(5);'

const RENDERER_FILES = {
  'renderer/shaders/basic.vert':
    'void main() { gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0); }',
  'renderer/shaders/wood.frag': 'uniform vec3 tint; void main() { gl_FragColor = vec4(tint, 1.0); }',
  'renderer/textures/grain.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
}

const WOOD = {
  vertexShader: 'shaders/basic.vert',
  fragmentShader: 'shaders/wood.frag',
  uniforms: {
    roughness: { type: 'float', value: 0.4 },
    rings: { type: 'int', value: 12 },
    polished: { type: 'bool', value: true },
    offset: { type: 'vec2', value: [0.5, 0.25] },
    light: { type: 'vec3', value: [1, 2, 3] },
    weights: { type: 'vec4', value: [0, 0.25, 0.5, 1] },
    tint: { type: 'color', value: '#a0522d' },
    grain: { type: 'sampler2d', value: { url: 'textures/grain.png', external: false } },
    decal: { type: 'sampler2d', value: { url: 'https://cdn.example.com/decal.png', external: true } },
  },
}

const DEFAULT_SCENE = { materials: { '0': WOOD }, background: '#ffffff', lights: [{ type: 'ambient', intensity: 0.5 }] }
const PLAIN = { materials: { '1': { vertexShader: 'shaders/basic.vert', fragmentShader: 'shaders/wood.frag' } } }

type Opened = Awaited<ReturnType<typeof openSession>>

const scenePath = (opened: Opened, rendererIndex = 0) =>
  `/configsessions/${opened.session.id}/renderers/${opened.session.renderSessions[rendererIndex]!.sessionId}/scene`

async function readScene(opened: Opened, rendererIndex = 0) {
  const response = await api('GET', scenePath(opened, rendererIndex), { token: opened.token })
  expect(response.status).toBe(200)
  return response.json()
}

describe('scene settings', () => {
  it('are {materials: {}} without renderer/scene.json', async () => {
    const opened = await openSession(MODEL)
    expect(await readScene(opened)).toEqual({ materials: {} })
  })

  it('default to renderer/scene.json, with settings other than materials kept', async () => {
    const opened = await openSession(
      MODEL,
      {},
      { ...RENDERER_FILES, 'renderer/scene.json': JSON.stringify(DEFAULT_SCENE) },
    )
    expect(await readScene(opened)).toEqual(DEFAULT_SCENE)
  })

  it.each([
    ['not JSON', '{"materials": '],
    ['not scene settings', JSON.stringify({ materials: { x: WOOD } })],
    [
      'naming a shader the configurator does not have',
      JSON.stringify({ materials: { '0': { ...WOOD, vertexShader: 'shaders/gone.vert' } } }),
    ],
  ])('fall back to {materials: {}} when renderer/scene.json is %s', async (_case, json) => {
    const opened = await openSession(MODEL, {}, { ...RENDERER_FILES, 'renderer/scene.json': json })
    expect(await readScene(opened)).toEqual({ materials: {} })
  })

  it('are replaced by PUT, which answers the stored settings, and GET reads them back', async () => {
    const opened = await openSession(
      MODEL,
      {},
      { ...RENDERER_FILES, 'renderer/scene.json': JSON.stringify(DEFAULT_SCENE) },
    )
    const updated = { ...PLAIN, background: '#000000' }
    const put = await api('PUT', scenePath(opened), { token: opened.token, body: updated })
    expect(put.status).toBe(200)
    expect(await put.json()).toEqual(updated)
    expect(await readScene(opened)).toEqual(updated)
  })

  it('are kept per renderer: updating one leaves the other on the default', async () => {
    const opened = await openSession(
      MODEL,
      { extraSettings: { renderers: ['headless'] } },
      { ...RENDERER_FILES, 'renderer/scene.json': JSON.stringify(DEFAULT_SCENE) },
    )
    expect(opened.session.renderSessions.map((renderer) => renderer.rendererType)).toEqual(['webgl', 'headless'])
    expect((await api('PUT', scenePath(opened, 1), { token: opened.token, body: PLAIN })).status).toBe(200)
    expect(await readScene(opened, 0)).toEqual(DEFAULT_SCENE)
    expect(await readScene(opened, 1)).toEqual(PLAIN)
    expect((await api('PUT', scenePath(opened, 0), { token: opened.token, body: { materials: {} } })).status).toBe(200)
    expect(await readScene(opened, 0)).toEqual({ materials: {} })
    expect(await readScene(opened, 1)).toEqual(PLAIN)
  })

  it('are saved per renderer with its type: the stored copy, or the default', async () => {
    const opened = await openSession(
      MODEL,
      { extraSettings: { renderers: ['headless'] } },
      { ...RENDERER_FILES, 'renderer/scene.json': JSON.stringify(DEFAULT_SCENE) },
    )
    expect((await api('PUT', scenePath(opened, 1), { token: opened.token, body: PLAIN })).status).toBe(200)
    const save = await api('GET', `/configsessions/${opened.session.id}/save`, { token: opened.token })
    expect(save.status).toBe(200)
    const entries = unzipSync(new Uint8Array(await save.arrayBuffer()))
    const [webgl, headless] = opened.session.renderSessions.map((renderer) =>
      JSON.parse(Buffer.from(entries[`scene/${renderer.sessionId}.json`]!).toString()),
    )
    expect(webgl).toEqual({ rendererType: 'webgl', ...DEFAULT_SCENE })
    expect(headless).toEqual({ rendererType: 'headless', ...PLAIN })
  })

  describe('refuse invalid settings with 422 naming the material, storing nothing', () => {
    let opened: Opened
    const stored = { materials: { '0': WOOD } }
    const material = (change: Record<string, unknown>) => ({ materials: { '0': { ...WOOD, ...change } } })
    const uniform = (type: string, value: unknown) => material({ uniforms: { tint: { type, value } } })

    beforeAll(async () => {
      opened = await openSession(MODEL, {}, RENDERER_FILES)
      expect((await api('PUT', scenePath(opened), { token: opened.token, body: stored })).status).toBe(200)
    })

    it.each([
      ['no materials', { background: '#fff' }, /^materials: /],
      [
        'a material key that is not a number',
        { materials: { x: WOOD } },
        /^materials\.x: a material key must be a part index/,
      ],
      ['a negative material key', { materials: { '-1': WOOD } }, /^materials\.-1: a material key must be a part index/],
      [
        'a material key with a leading zero',
        { materials: { '01': WOOD } },
        /^materials\.01: a material key must be a part index/,
      ],
      [
        'a material key over 6 digits',
        { materials: { '1000000': WOOD } },
        /^materials\.1000000: a material key must be a part index/,
      ],
      [
        'a material without fragmentShader',
        { materials: { '0': { vertexShader: 'shaders/basic.vert' } } },
        /^materials\.0\.fragmentShader: /,
      ],
      [
        'an unknown material field',
        material({ fragmentshader: 'x' }),
        /^materials\.0: Unrecognized key: "fragmentshader"/,
      ],
      [
        'a uniform name that is not a GLSL identifier',
        material({ uniforms: { 'my tint': { type: 'float', value: 1 } } }),
        /^materials\.0\.uniforms\.my tint: a uniform name must be a GLSL identifier/,
      ],
      [
        'an unknown uniform type',
        uniform('mat4', [1]),
        /^materials\.0\.uniforms\.tint\.type: must be one of float, int, bool, vec2, vec3, vec4, color, sampler2d$/,
      ],
      [
        'a uniform without type',
        material({ uniforms: { tint: { value: 1 } } }),
        /^materials\.0\.uniforms\.tint\.type: must be one of /,
      ],
      [
        'a uniform without value',
        material({ uniforms: { tint: { type: 'float' } } }),
        /^materials\.0\.uniforms\.tint\.value: /,
      ],
      ['a string for float', uniform('float', '1.5'), /^materials\.0\.uniforms\.tint\.value: .*number/],
      ['a fraction for int', uniform('int', 1.5), /^materials\.0\.uniforms\.tint\.value: .*int/],
      ['a number for bool', uniform('bool', 1), /^materials\.0\.uniforms\.tint\.value: .*boolean/],
      ['three numbers for vec2', uniform('vec2', [1, 2, 3]), /^materials\.0\.uniforms\.tint\.value: /],
      ['two numbers for vec3', uniform('vec3', [1, 2]), /^materials\.0\.uniforms\.tint\.value: /],
      ['a string inside vec4', uniform('vec4', [1, 2, 3, 'x']), /^materials\.0\.uniforms\.tint\.value\.3: /],
      [
        'a colour name for color',
        uniform('color', 'red'),
        /^materials\.0\.uniforms\.tint\.value: must be a hex colour like "#ff0000"$/,
      ],
      ['an array for color', uniform('color', [1, 0, 0]), /^materials\.0\.uniforms\.tint\.value: /],
      ['a string for sampler2d', uniform('sampler2d', 'textures/grain.png'), /^materials\.0\.uniforms\.tint\.value: /],
      [
        'a sampler2d without external',
        uniform('sampler2d', { url: 'textures/grain.png' }),
        /^materials\.0\.uniforms\.tint\.value\.external: must be true or false$/,
      ],
      [
        'an external sampler2d url that is not http(s)',
        uniform('sampler2d', { url: 'file:///etc/passwd', external: true }),
        /^materials\.0\.uniforms\.tint\.value\.url: must be an http\(s\) URL/,
      ],
      [
        'an external sampler2d url that is a javascript: URL',
        uniform('sampler2d', { url: 'javascript:alert(1)', external: true }),
        /^materials\.0\.uniforms\.tint\.value\.url: must be an http\(s\) URL/,
      ],
      [
        'an external sampler2d url on loopback, spelled as a number',
        uniform('sampler2d', { url: 'http://2130706433:3000/x.png', external: true }),
        /^materials\.0\.uniforms\.tint\.value\.url: 127\.0\.0\.1 is not a public address/,
      ],
      [
        'an external sampler2d url on localhost',
        uniform('sampler2d', { url: 'https://app.localhost./x.png', external: true }),
        /^materials\.0\.uniforms\.tint\.value\.url: app\.localhost\. is this server/,
      ],
      [
        'an external sampler2d url on a private address',
        uniform('sampler2d', { url: 'http://[::ffff:10.0.0.1]/x.png', external: true }),
        /^materials\.0\.uniforms\.tint\.value\.url: \[::ffff:a00:1\] is not a public address/,
      ],
      [
        'a sampler2d path with a dot segment',
        uniform('sampler2d', { url: '../configurator/main.scad', external: false }),
        /^materials\.0\.uniforms\.tint\.value\.url: '\.\.' is not allowed/,
      ],
      [
        'a sampler2d path not among the files',
        uniform('sampler2d', { url: 'textures/missing.png', external: false }),
        /^materials\.0\.uniforms\.tint\.value\.url: renderer\/textures\/missing\.png is not among the configurator's files$/,
      ],
      [
        'a missing vertex shader',
        material({ vertexShader: 'shaders/missing.vert' }),
        /^materials\.0\.vertexShader: renderer\/shaders\/missing\.vert is not among the configurator's files$/,
      ],
      [
        'an absolute shader path',
        material({ fragmentShader: '/etc/passwd' }),
        /^materials\.0\.fragmentShader: empty path segment/,
      ],
      [
        'a model file as shader',
        material({ fragmentShader: 'configurator/main.scad' }),
        /^materials\.0\.fragmentShader: renderer\/configurator\/main\.scad is not among/,
      ],
      [
        'two missing shaders in two materials',
        { materials: { '0': { ...WOOD, fragmentShader: 'a.frag' }, '3': { ...WOOD, vertexShader: 'b.vert' } } },
        /^materials\.0\.fragmentShader: renderer\/a\.frag is not among .*; materials\.3\.vertexShader: renderer\/b\.vert is not among /,
      ],
    ])('%s', async (_case, body, message) => {
      await expectError(
        await api('PUT', scenePath(opened), { token: opened.token, body }),
        422,
        'unprocessable_entity',
        message,
      )
      expect(await readScene(opened)).toEqual(stored)
    })
  })

  it('answers 404 for another session’s renderer, an unknown one and a malformed id', async () => {
    const opened = await openSession(MODEL, {}, RENDERER_FILES)
    const other = await openSession(MODEL, {}, RENDERER_FILES)
    const foreign = `/configsessions/${opened.session.id}/renderers/${other.session.renderSessions[0]!.sessionId}/scene`
    await expectError(await api('GET', foreign, { token: opened.token }), 404, 'not_found', /Renderer .* not found/)
    await expectError(await api('PUT', foreign, { token: opened.token, body: PLAIN }), 404, 'not_found')
    // The owner of both sessions cannot cross them either.
    await expectError(await api('GET', foreign, { token: other.token }), 404, 'not_found')
    expect(await readScene(other)).toEqual({ materials: {} })
    await expectError(
      await api('GET', `/configsessions/${opened.session.id}/renderers/00000000-0000-4000-8000-000000000000/scene`, {
        token: opened.token,
      }),
      404,
      'not_found',
    )
    await expectError(
      await api('GET', `/configsessions/${opened.session.id}/renderers/not-a-renderer/scene`, { token: opened.token }),
      404,
      'not_found',
    )
  })

  it("works with an application's anonymous token and its X-API-KEY, as a customer's browser calls it", async () => {
    const { owner, configuratorId } = await openSession(MODEL, {}, RENDERER_FILES)
    const application = await registerApplication(owner.token, configuratorId)
    const headers = { 'x-api-key': application.key }
    const { accessToken } = (await (await api('POST', '/auth/anonymous', { headers })).json()) as {
      accessToken: string
    }
    const created = await api('POST', '/configsessions', { token: accessToken, headers, body: { configuratorId } })
    const session = (await created.json()) as Opened['session']
    const path = `/configsessions/${session.id}/renderers/${session.renderSessions[0]!.sessionId}`
    const put = await api('PUT', `${path}/scene`, { token: accessToken, headers, body: PLAIN })
    expect(put.status).toBe(200)
    expect(await (await api('GET', `${path}/scene`, { token: accessToken, headers })).json()).toEqual(PLAIN)
    expect((await api('GET', `${path}/files/shaders/wood.frag`, { token: accessToken, headers })).status).toBe(200)
    await expectError(await api('GET', `${path}/scene`, { token: accessToken }), 401, 'unauthorized', /X-API-KEY/)
  })

  it('needs a session credential: 401 without a token, 404 for a stranger, 415 for a body that is not JSON', async () => {
    const opened = await openSession(MODEL, {}, RENDERER_FILES)
    await expectError(await api('GET', scenePath(opened)), 401, 'unauthorized')
    await expectError(await api('PUT', scenePath(opened), { body: PLAIN }), 401, 'unauthorized')
    const stranger = await signUp()
    await expectError(await api('GET', scenePath(opened), { token: stranger.token }), 404, 'not_found')
    await expectError(await api('PUT', scenePath(opened), { token: stranger.token, body: PLAIN }), 404, 'not_found')
    await expectError(
      await api('PUT', scenePath(opened), { token: opened.token, body: JSON.stringify(PLAIN) }),
      415,
      'unsupported_media_type',
    )
    expect(await readScene(opened)).toEqual({ materials: {} })
  })
})
