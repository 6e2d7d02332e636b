import { describe, expect, it } from 'vitest'
import { api } from '@/test/support/api-client'
import { expectError, openSession } from '@/test/support/fixtures'

const BOX = `
/* [Size] */
// Width of the box
width = 40; // [10:1:100]
depth = 30; // [10:0.5:80]
height = 20; // [20]
/* [Style] */
lid = true;
corner = "square"; // [square:Square corners, round:Round corners]
holes = 2; // [0, 1, 2, 4]
label = "Box"; // 12
$fn = 16;
echo("building", width, depth, height);
color("tan") cube([width, depth, height]);
if (lid) color("green") translate([0, 0, height]) cube([width, depth, 2]);
`

describe('sessions', () => {
  it('reads the parameters of the model in the interface shape', async () => {
    const { session, token } = await openSession(BOX)
    const response = await api('GET', `/configsessions/${session.id}/parameters`, { token })
    expect(response.status).toBe(200)
    const parameters = await response.json()
    // `$fn = 16;` at the top is a Customizer control too, as in OpenSCAD (no quality setting takes it here).
    expect(Object.keys(parameters)).toEqual(['width', 'depth', 'height', 'lid', 'corner', 'holes', 'label', '$fn'])
    expect(parameters.width).toEqual({
      name: 'Width',
      type: 'float',
      min: 10,
      default: 40,
      max: 100,
      value: 40,
      step: 1,
      group: 'Size',
      caption: 'Width of the box',
    })
    expect(parameters.height).toMatchObject({ type: 'float', min: 0, max: 20, value: 20 })
    expect(parameters.lid).toMatchObject({ type: 'bool', default: true, value: true, group: 'Style' })
    expect(parameters.corner).toMatchObject({
      type: 'choice',
      value: 'square',
      options: [
        { value: 'square', label: 'Square corners' },
        { value: 'round', label: 'Round corners' },
      ],
    })
    expect(parameters.holes).toMatchObject({
      type: 'choice',
      value: 2,
      options: [
        { value: 0, label: '0' },
        { value: 1, label: '1' },
        { value: 2, label: '2' },
        { value: 4, label: '4' },
      ],
    })
    expect(parameters.label).toMatchObject({ type: 'string', value: 'Box', maxLength: 12 })
  })

  it('sets parameters, rebuilds, and model, objectinfo and log describe the new state', async () => {
    const { session, token } = await openSession(BOX)
    const put = await api('PUT', `/configsessions/${session.id}/parameters`, {
      token,
      body: { width: { value: 50 }, lid: { value: false } },
    })
    expect(put.status).toBe(200)
    const parameters = await put.json()
    expect(parameters.width.value).toBe(50)
    expect(parameters.lid.value).toBe(false)
    expect(parameters.depth.value).toBe(30)

    const info = await (await api('GET', `/configsessions/${session.id}/objectinfo`, { token })).json()
    expect(info.boundingBox).toEqual({ minX: 0, maxX: 50, minY: 0, maxY: 30, minZ: 0, maxZ: 20 })
    expect(info.volume).toBeCloseTo(50 * 30 * 20, 3)

    const log = await (await api('GET', `/configsessions/${session.id}/log`, { token })).json()
    expect(log.message).toContain('ECHO: "building", 50, 30, 20')
    expect(log.error).toBe('')
    expect(Math.abs(log.timestamp - Date.now())).toBeLessThan(60_000)

    const model = await api('GET', `/configsessions/${session.id}/model`, { token })
    expect(model.status).toBe(200)
    expect(model.headers.get('content-type')).toBe('model/stl')
    expect(model.headers.get('content-disposition')).toContain('filename="model.stl"')
    const stl = new Uint8Array(await model.arrayBuffer())
    expect(stl.byteLength).toBe(84 + 50 * new DataView(stl.buffer).getUint32(80, true))
  })

  it.each([
    ['an unknown key', { nope: { value: 1 } }, /nope: is not a parameter/, ['nope']],
    ['a number below min', { width: { value: 5 } }, /width: must be at least 10/, ['width', 'value']],
    ['a number above max', { width: { value: 101 } }, /width: must be at most 100/, ['width', 'value']],
    ['a string for a number', { width: { value: '50' } }, /width: must be a number/, ['width', 'value']],
    ['a number for a bool', { lid: { value: 1 } }, /lid: must be true or false/, ['lid', 'value']],
    [
      'a value not among the options',
      { corner: { value: 'oval' } },
      /corner: must be one of "square", "round"/,
      ['corner', 'value'],
    ],
    [
      'a string over maxLength',
      { label: { value: 'x'.repeat(13) } },
      /label: must be at most 12 characters/,
      ['label', 'value'],
    ],
    ['an entry without value', { width: {} }, /width\.value: /, ['width', 'value']],
  ])('refuses %s with 422 naming the key and its field, storing nothing', async (_case, body, message, path) => {
    const { session, token } = await openSession(BOX)
    const error = await expectError(
      await api('PUT', `/configsessions/${session.id}/parameters`, { token, body: { depth: { value: 40 }, ...body } }),
      422,
      'unprocessable_entity',
      message,
    )
    expect(error.fields?.map((field) => field.path)).toEqual([path])
    const parameters = await (await api('GET', `/configsessions/${session.id}/parameters`, { token })).json()
    expect(parameters.depth.value).toBe(30)
  })
})
