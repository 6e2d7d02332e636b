import { afterEach, describe, expect, it, vi } from 'vitest'
import { openscadEngine } from '@/lib/cad/openscad/openscad-engine'
import { ZObjectInfo, ZParameterSet, ZSession } from '@/lib/sessions/schemas'
import { api } from '@/test/support/api-client'
import { expectError, openSession } from '@/test/support/fixtures'

// OpenSCAD Customizer vectors: the range applies to each element.
const VECTORS = (tag: string) => `size = [20, 10, 5]; // [1:50]
grid = [2, 0]; // [0:1:10]
cube(size);
echo("${tag}");
`

type Opened = Awaited<ReturnType<typeof openSession>>
const getParameters = async ({ session, token }: Opened) =>
  ZParameterSet.parse(await (await api('GET', `/configsessions/${session.id}/parameters`, { token })).json())
const put = ({ session, token }: Opened, body: Record<string, { value: unknown }>) =>
  api('PUT', `/configsessions/${session.id}/parameters`, { token, body })
const objectInfo = async ({ session, token }: Opened) =>
  ZObjectInfo.parse(await (await api('GET', `/configsessions/${session.id}/objectinfo`, { token })).json())

afterEach(() => vi.restoreAllMocks())

describe('vector parameters', () => {
  it('are read from the model with the range of each element', async () => {
    const parameters = await getParameters(await openSession(VECTORS('read')))
    expect(parameters.size).toEqual({
      name: 'Size',
      group: 'Parameters',
      caption: '',
      type: 'vector',
      min: 1,
      max: 50,
      step: 1,
      default: [20, 10, 5],
      value: [20, 10, 5],
    })
    expect(parameters.grid).toMatchObject({ type: 'vector', min: 0, max: 10, step: 1, default: [2, 0], value: [2, 0] })
  })

  it('are set and built as OpenSCAD vectors', async () => {
    const opened = await openSession(VECTORS('set'))
    expect((await objectInfo(opened)).boundingBox).toMatchObject({ maxX: 20, maxY: 10, maxZ: 5 })
    const response = await put(opened, { size: { value: [30, 12.5, 4] } })
    expect(response.status).toBe(200)
    expect(ZParameterSet.parse(await response.json()).size?.value).toEqual([30, 12.5, 4])
    expect((await getParameters(opened)).size?.value).toEqual([30, 12.5, 4])
    expect((await objectInfo(opened)).boundingBox).toMatchObject({ maxX: 30, maxY: 12.5, maxZ: 4 })
  })

  it('survive a save and restore', async () => {
    const opened = await openSession(VECTORS('save'))
    expect((await put(opened, { grid: { value: [7, 3] } })).status).toBe(200)
    const zip = new Uint8Array(
      await (await api('GET', `/configsessions/${opened.session.id}/save`, { token: opened.token })).arrayBuffer(),
    )
    const restored = await api('POST', `/configsessions?configuratorId=${opened.configuratorId}`, {
      token: opened.token,
      body: zip,
      headers: { 'content-type': 'application/zip' },
    })
    expect(restored.status).toBe(200)
    const { id } = ZSession.parse(await restored.json())
    expect((await getParameters({ ...opened, session: { ...opened.session, id } })).grid?.value).toEqual([7, 3])
  })

  it.each([
    [
      'an element above max',
      { size: { value: [20, 51, 5] } },
      /size: element 2 must be at most 50/,
      [['size', 'value', 1]],
    ],
    [
      'two bad elements',
      { size: { value: [0, 10, 'x'] } },
      /size: element 1 must be at least 1; size: element 3 must be a number/,
      [
        ['size', 'value', 0],
        ['size', 'value', 2],
      ],
    ],
    [
      'a vector of another length',
      { grid: { value: [1, 2, 3] } },
      /grid: must be a list of 2 numbers/,
      [['grid', 'value']],
    ],
    ['a number for a vector', { grid: { value: 3 } }, /grid: must be a list of 2 numbers/, [['grid', 'value']]],
  ])('refuse %s with 422 naming each element, storing nothing', async (_case, body, message, paths) => {
    const opened = await openSession(VECTORS('refuse'))
    const error = await expectError(await put(opened, body), 422, 'unprocessable_entity', message)
    expect(error.fields?.map((field) => field.path)).toEqual(paths)
    expect((await getParameters(opened)).size?.value).toEqual([20, 10, 5])
  })
})

describe('PUT /parameters', () => {
  it('reads the parameters and builds once per request, the build started by the PUT', async () => {
    const opened = await openSession(VECTORS(`once ${Date.now()}`))
    // Opening the session read the parameters and built its first state.
    await objectInfo(opened)
    const reads = vi.spyOn(openscadEngine, 'readParameters')
    const builds = vi.spyOn(openscadEngine, 'build')

    expect((await put(opened, { size: { value: [21, 10, 5] } })).status).toBe(200)
    // The PUT started the build; the model waits for it.
    const model = () => api('GET', `/configsessions/${opened.session.id}/model`, { token: opened.token })
    expect((await model()).status).toBe(200)
    expect(builds).toHaveBeenCalledTimes(1)
    expect(builds.mock.calls[0]?.[0].values).toEqual({ grid: [2, 0], size: [21, 10, 5] })
    expect(reads).toHaveBeenCalledTimes(0)

    // Asked again, the model comes from the build cache.
    expect((await model()).headers.get('x-build-cache')).toBe('memory')
    expect(builds).toHaveBeenCalledTimes(1)
  })
})

describe("a designer's change", () => {
  it('reaches an open session at once: its files, then its settings', async () => {
    const opened = await openSession(VECTORS(`changed ${Date.now()}`))
    expect(Object.keys(await getParameters(opened))).toEqual(['size', 'grid'])
    const upload = await api('PUT', `/configurators/${opened.configuratorId}/files/configurator/main.scad`, {
      token: opened.token,
      body: 'depth = 4; // [1:9]\ncube(depth);\n',
    })
    expect(upload.status).toBe(202)
    expect(Object.keys(await getParameters(opened))).toEqual(['depth'])

    // The quality settings set `depth`: it is the configurator's then, no customer's parameter.
    const settings = { extraSettings: { quality: { preview: { depth: 2 } } } }
    expect(
      (await api('PUT', `/configurators/${opened.configuratorId}`, { token: opened.token, body: settings })).status,
    ).toBe(200)
    expect(Object.keys(await getParameters(opened))).toEqual([])
  })
})
