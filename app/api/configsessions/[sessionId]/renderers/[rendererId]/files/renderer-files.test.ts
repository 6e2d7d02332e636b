import { createHash } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '@/test/support/api-client'
import { expectError, openSession, signUp } from '@/test/support/fixtures'

const FRAGMENT_SHADER = 'uniform vec3 tint; void main() { gl_FragColor = vec4(tint, 1.0); }'
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex')

type Opened = Awaited<ReturnType<typeof openSession>>

let opened: Opened
let other: Opened
let filesPath: string

beforeAll(async () => {
  const files = { 'renderer/shaders/wood.frag': FRAGMENT_SHADER, 'renderer/textures/grain.png': PNG }
  opened = await openSession('cube(10);', {}, files)
  other = await openSession('cube(10);', {}, files)
  filesPath = `/configsessions/${opened.session.id}/renderers/${opened.session.renderSessions[0]!.sessionId}/files`
})

const key = (value: string) => `?key=${encodeURIComponent(value)}`

describe('renderer files', () => {
  it('serve a shader and a texture with their content type, ETag and private caching', async () => {
    const shader = await api('GET', `${filesPath}/shaders/wood.frag`, { token: opened.token })
    expect(shader.status).toBe(200)
    expect(shader.headers.get('content-type')).toBe('text/x-glsl')
    expect(shader.headers.get('etag')).toBe(`"${sha256(FRAGMENT_SHADER)}"`)
    expect(shader.headers.get('cache-control')).toBe('private, max-age=300')
    expect(shader.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await shader.text()).toBe(FRAGMENT_SHADER)

    const texture = await api('GET', `${filesPath}/textures/grain.png`, { token: opened.token })
    expect(texture.status).toBe(200)
    expect(texture.headers.get('content-type')).toBe('image/png')
    expect(texture.headers.get('content-length')).toBe(String(PNG.byteLength))
    expect(texture.headers.get('etag')).toBe(`"${sha256(PNG)}"`)
    expect(new Uint8Array(await texture.arrayBuffer())).toEqual(PNG)
  })

  it('answer 304 without a body to a matching If-None-Match, 200 to another', async () => {
    const etag = `"${sha256(FRAGMENT_SHADER)}"`
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await api('GET', `${filesPath}/shaders/wood.frag`, {
        token: opened.token,
        headers: { 'if-none-match': ifNoneMatch },
      })
      expect(response.status, ifNoneMatch).toBe(304)
      expect(response.headers.get('etag')).toBe(etag)
      expect(response.headers.get('cache-control')).toBe('private, max-age=300')
      expect(await response.text()).toBe('')
    }
    const changed = await api('GET', `${filesPath}/shaders/wood.frag`, {
      token: opened.token,
      headers: { 'if-none-match': `"${sha256('old')}"` },
    })
    expect(changed.status).toBe(200)
    expect(await changed.text()).toBe(FRAGMENT_SHADER)
  })

  it('work with the renderingKey and no headers, as an img src or a loader URL would', async () => {
    const response = await api('GET', `${filesPath}/textures/grain.png${key(opened.session.renderingKey)}`)
    expect(response.status).toBe(200)
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG)
    const cached = await api('GET', `${filesPath}/textures/grain.png${key(opened.session.renderingKey)}`, {
      headers: { 'if-none-match': `"${sha256(PNG)}"` },
    })
    expect(cached.status).toBe(304)
  })

  it('refuse (403) the modelKey, another session’s renderingKey and a forged key', async () => {
    await expectError(
      await api('GET', `${filesPath}/textures/grain.png${key(opened.session.modelKey)}`),
      403,
      'forbidden',
      /rendering key/,
    )
    await expectError(
      await api('GET', `${filesPath}/textures/grain.png${key(other.session.renderingKey)}`),
      403,
      'forbidden',
    )
    const [purpose, session, expires] = opened.session.renderingKey.split('.')
    await expectError(
      await api('GET', `${filesPath}/textures/grain.png${key(`${purpose}.${session}.${expires}.AAAA`)}`),
      403,
      'forbidden',
    )
  })

  it('need a credential: 401 without one, 404 for a stranger', async () => {
    await expectError(await api('GET', `${filesPath}/shaders/wood.frag`), 401, 'unauthorized')
    await expectError(
      await api('GET', `${filesPath}/shaders/wood.frag`, { token: (await signUp()).token }),
      404,
      'not_found',
    )
  })

  it('answer 404 for a missing file, a model file and another session’s renderer', async () => {
    await expectError(
      await api('GET', `${filesPath}/shaders/missing.frag`, { token: opened.token }),
      404,
      'not_found',
      /renderer\/shaders\/missing\.frag not found/,
    )
    // Only the renderer directory is served: this names renderer/configurator/main.scad.
    await expectError(
      await api('GET', `${filesPath}/configurator/main.scad`, { token: opened.token }),
      404,
      'not_found',
    )
    const foreign = `/configsessions/${opened.session.id}/renderers/${other.session.renderSessions[0]!.sessionId}/files/shaders/wood.frag`
    await expectError(await api('GET', foreign, { token: opened.token }), 404, 'not_found', /Renderer/)
    await expectError(await api('GET', `${foreign}${key(opened.session.renderingKey)}`), 404, 'not_found', /Renderer/)
  })

  it.each([
    ['%2F inside a name', 'shaders%2Fwood.frag', 422],
    ['an encoded dot segment inside a name', '..%2Fconfigurator%2Fmain.scad', 422],
    ['%5C inside a name', 'shaders%5Cwood.frag', 422],
    ['a NUL', 'shaders/wood.frag%00', 422],
    ['an encoded empty segment', 'shaders/%2F/wood.frag', 422],
    ['a malformed percent-encoding', 'shaders/%E0%A4', 400],
    ['a name over 255 bytes', `${'a'.repeat(256)}.frag`, 422],
  ])('refuse a hostile path with %s (%i)', async (_case, filePath, status) => {
    const code = status === 400 ? 'bad_request' : 'unprocessable_entity'
    await expectError(await api('GET', `${filesPath}/${filePath}`, { token: opened.token }), status, code, /path/i)
    await expectError(await api('GET', `${filesPath}/${filePath}${key(opened.session.renderingKey)}`), status, code)
  })
})
