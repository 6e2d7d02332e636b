import { crc32, deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { api } from '@/test/support/api-client'
import { expectError, openSession } from '@/test/support/fixtures'

// 20 x 10 mm: with width/height in mm and a matching viewBox, one user unit is one millimetre.
const SVG_RECTANGLE = `<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm" viewBox="0 0 20 10"><rect x="0" y="0" width="20" height="10"/></svg>`

const LOGO_MODEL = `
logo = ""; // [file]
if (logo != "") linear_extrude(2) import(logo);
`

/** A closed binary STL box from `min` to `max`, faces wound counter-clockwise seen from outside. */
function stlBox(min: [number, number, number], max: [number, number, number]): Uint8Array {
  const corner = (i: number) => [i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]]
  // Quads as corner indices (bit 0 = x, bit 1 = y, bit 2 = z), each counter-clockwise from outside.
  const quads = [
    [0, 2, 3, 1], // z = min
    [4, 5, 7, 6], // z = max
    [0, 1, 5, 4], // y = min
    [2, 6, 7, 3], // y = max
    [0, 4, 6, 2], // x = min
    [1, 3, 7, 5], // x = max
  ]
  const triangles = quads.flatMap(([a, b, c, d]) => [
    [a!, b!, c!],
    [a!, c!, d!],
  ])
  const bytes = new Uint8Array(84 + triangles.length * 50)
  const view = new DataView(bytes.buffer)
  bytes.set(new TextEncoder().encode('test box'))
  view.setUint32(80, triangles.length, true)
  let offset = 84
  for (const triangle of triangles) {
    offset += 12 // zero normal: readers compute it from the winding
    for (const index of triangle) {
      for (const value of corner(index)) {
        view.setFloat32(offset, value, true)
        offset += 4
      }
    }
    offset += 2
  }
  return bytes
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(typeAndData))
  return Buffer.concat([length, typeAndData, crc])
}

/** A valid 8-bit grayscale PNG of `rows` (each row one byte a pixel). */
function grayscalePng(rows: number[][]): Uint8Array {
  const width = rows[0]!.length
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(rows.length, 4)
  header.set([8, 0, 0, 0, 0], 8) // bit depth 8, grayscale, deflate, no filter method, no interlace
  const raw = Buffer.concat(rows.map((row) => Buffer.from([0, ...row]))) // filter type 0 on every row
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', header),
      pngChunk('IDAT', deflateSync(raw)),
      pngChunk('IEND', new Uint8Array(0)),
    ]),
  )
}

async function setup(source = 'cube(1);') {
  const opened = await openSession(source)
  const { session, token } = opened
  const upload = (name: string, body: string | Uint8Array) =>
    api('POST', `/configsessions/${session.id}/files?name=${encodeURIComponent(name)}`, { token, body })
  const list = async () => {
    const response = await api('GET', `/configsessions/${session.id}/files`, { token })
    expect(response.status).toBe(200)
    return (await response.json()) as { name: string; ext: string; contentType: string }[]
  }
  const setValues = (body: Record<string, { value: unknown }>) =>
    api('PUT', `/configsessions/${session.id}/parameters`, { token, body })
  const objectInfo = async () => {
    const response = await api('GET', `/configsessions/${session.id}/objectinfo`, { token })
    expect(response.status).toBe(200)
    return (await response.json()) as {
      boundingBox: Record<'minX' | 'maxX' | 'minY' | 'maxY' | 'minZ' | 'maxZ', number>
      volume: number
    }
  }
  return { ...opened, upload, list, setValues, objectInfo }
}

function expectSize(
  box: Record<'minX' | 'maxX' | 'minY' | 'maxY' | 'minZ' | 'maxZ', number>,
  size: [number, number, number],
) {
  expect(box.maxX - box.minX).toBeCloseTo(size[0], 3)
  expect(box.maxY - box.minY).toBeCloseTo(size[1], 3)
  expect(box.maxZ - box.minZ).toBeCloseTo(size[2], 3)
}

describe('session files', () => {
  it('adds a file (201 with its entry), lists it, serves it byte for byte and deletes it', async () => {
    const { session, token, upload, list } = await setup()
    const response = await upload('logo.svg', SVG_RECTANGLE)
    expect(response.status).toBe(201)
    const entry = await response.json()
    expect(entry).toEqual({
      name: expect.stringMatching(/^[A-Za-z0-9_-]{1,32}$/),
      ext: 'svg',
      contentType: 'image/svg+xml',
    })

    const binary = new Uint8Array(Array.from({ length: 4096 }, (_, index) => (index * 31) % 256))
    const binaryEntry = await (await upload('Data.BIN', binary)).json()
    expect(binaryEntry).toEqual({ name: expect.any(String), ext: 'bin', contentType: 'application/octet-stream' })
    expect(binaryEntry.name).not.toBe(entry.name)

    expect(await list()).toEqual([entry, binaryEntry])

    const download = await api('GET', `/configsessions/${session.id}/files/${entry.name}`, { token })
    expect(download.status).toBe(200)
    expect(download.headers.get('content-type')).toBe('image/svg+xml')
    expect(download.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await download.text()).toBe(SVG_RECTANGLE)
    const binaryDownload = await api('GET', `/configsessions/${session.id}/files/${binaryEntry.name}`, { token })
    expect(Buffer.compare(Buffer.from(await binaryDownload.arrayBuffer()), binary)).toBe(0)

    const deleted = await api('DELETE', `/configsessions/${session.id}/files/${entry.name}`, { token })
    expect(deleted.status).toBe(204)
    expect(await deleted.text()).toBe('')
    expect(await list()).toEqual([binaryEntry])
    await expectError(
      await api('GET', `/configsessions/${session.id}/files/${entry.name}`, { token }),
      404,
      'not_found',
    )
    await expectError(
      await api('DELETE', `/configsessions/${session.id}/files/${entry.name}`, { token }),
      404,
      'not_found',
    )
  })

  it('keeps the id when a name is uploaded again, and replaces the content', async () => {
    const { session, token, upload, list } = await setup()
    const first = await (await upload('notes.txt', 'one')).json()
    const second = await (await upload('notes.txt', 'two')).json()
    expect(second).toEqual(first)
    expect(await list()).toEqual([first])
    expect(await (await api('GET', `/configsessions/${session.id}/files/${first.name}`, { token })).text()).toBe('two')
  })

  it("does not show one session's files in another session of the same configurator", async () => {
    const { configuratorId, token, upload } = await setup()
    const entry = await (await upload('logo.svg', SVG_RECTANGLE)).json()
    const sibling = (await (await api('POST', '/configsessions', { token, body: { configuratorId } })).json()) as {
      id: string
    }
    expect(await (await api('GET', `/configsessions/${sibling.id}/files`, { token })).json()).toEqual([])
    await expectError(
      await api('GET', `/configsessions/${sibling.id}/files/${entry.name}`, { token }),
      404,
      'not_found',
    )
    await expectError(
      await api('DELETE', `/configsessions/${sibling.id}/files/${entry.name}`, { token }),
      404,
      'not_found',
    )
  })

  it.each([
    ['a parent reference', '../x'],
    ['a slash', 'a/b'],
    ['a backslash', 'a\\b'],
    ['a dot segment', '..'],
    ['a control character', 'a\u0001b'], // NUL anywhere in a query is 422, test/api/hostile-json.test.ts
    ['an empty name', ''],
    ['a name over 255 bytes', `${'x'.repeat(252)}.svg`],
    ['a name over 255 bytes in fewer characters', 'é'.repeat(130)],
  ])('refuses %s in the name with 400 and stores nothing', async (_case, name) => {
    const { upload, list } = await setup()
    await expectError(await upload(name, 'data'), 400, 'bad_request', /name/i)
    expect(await list()).toEqual([])
  })

  it('answers 422 naming the query field when name is missing', async () => {
    const { session, token, list } = await setup()
    await expectError(
      await api('POST', `/configsessions/${session.id}/files`, { token, body: 'data' }),
      422,
      'unprocessable_entity',
      /name/,
    )
    expect(await list()).toEqual([])
  })

  it('stores a file through the built-in files service (202) and lists it', async () => {
    const { session, token, list } = await setup()
    const stl = stlBox([0, 0, 0], [1, 2, 3])
    const response = await api('PUT', `/services/files/upload/configsessions/${session.id}/part.stl`, {
      token,
      body: stl,
    })
    expect(response.status).toBe(202)
    const files = await list()
    expect(files).toEqual([{ name: expect.any(String), ext: 'stl', contentType: 'model/stl' }])
    const download = await api('GET', `/configsessions/${session.id}/files/${files[0]!.name}`, { token })
    expect(Buffer.compare(Buffer.from(await download.arrayBuffer()), stl)).toBe(0)
  })

  it('checks the session credentials on the files service', async () => {
    const { session, list } = await setup()
    const stranger = await openSession('cube(1);')
    const path = `/services/files/upload/configsessions/${session.id}/part.stl`
    await expectError(await api('PUT', path, { body: 'x' }), 401, 'unauthorized')
    await expectError(await api('PUT', path, { token: stranger.token, body: 'x' }), 404, 'not_found')
    await expectError(
      await api('PUT', `/services/files/upload/configsessions/not-a-session/part.stl`, {
        token: stranger.token,
        body: 'x',
      }),
      404,
      'not_found',
    )
    await expectError(
      await api('PUT', `/services/files/download/configsessions/${session.id}/part.stl`, {
        token: stranger.token,
        body: 'x',
      }),
      404,
      'not_found',
    )
    expect(await list()).toEqual([])
  })

  it('refuses a hostile name through the files service too', async () => {
    const { session, token, list } = await setup()
    await expectError(
      await api('PUT', `/services/files/upload/configsessions/${session.id}/..%2Fx`, { token, body: 'data' }),
      422,
      'unprocessable_entity',
    )
    expect(await list()).toEqual([])
  })
})

describe('the model uses session files', () => {
  it('imports the SVG a file parameter points at', async () => {
    const { upload, setValues, objectInfo } = await setup(LOGO_MODEL)
    const { name: logoId } = await (await upload('logo.svg', SVG_RECTANGLE)).json()

    const response = await setValues({ logo: { value: logoId } })
    expect(response.status).toBe(200)
    expect((await response.json()).logo).toMatchObject({ type: 'file', default: '', value: logoId })

    const { boundingBox, volume } = await objectInfo()
    expectSize(boundingBox, [20, 10, 2])
    expect(boundingBox.minZ).toBeCloseTo(0, 3)
    expect(volume).toBeCloseTo(20 * 10 * 2, 1)
  })

  it('imports an uploaded STL by its name', async () => {
    const { upload, objectInfo, session, token } = await setup(
      'copies = 1; // [1:1:3]\nfor (i = [1:copies]) translate([0, 0, 10 * (i - 1)]) import("part.stl");',
    )
    expect((await upload('part.stl', stlBox([1, 2, 3], [13, 9, 8]))).status).toBe(201)
    const { boundingBox, volume } = await objectInfo()
    expect(boundingBox).toEqual({ minX: 1, maxX: 13, minY: 2, maxY: 9, minZ: 3, maxZ: 8 })
    expect(volume).toBeCloseTo(12 * 7 * 5, 3)
    const log = await (await api('GET', `/configsessions/${session.id}/log`, { token })).json()
    expect(log.error).toBe('')
  })

  it('builds a model without any Customizer parameter (a bare import)', async () => {
    // OpenSCAD's parameter export of such a model is {"title": ...} with no "parameters" array.
    const { upload, objectInfo, session, token } = await setup('import("part.stl");')
    expect((await upload('part.stl', stlBox([0, 0, 0], [4, 5, 6]))).status).toBe(201)
    expect(await (await api('GET', `/configsessions/${session.id}/parameters`, { token })).json()).toEqual({})
    expect((await objectInfo()).boundingBox).toEqual({ minX: 0, maxX: 4, minY: 0, maxY: 5, minZ: 0, maxZ: 6 })
  })

  it('builds a surface() from an uploaded 4 x 4 PNG height map', async () => {
    const { upload, objectInfo } = await setup('base = 1; // [1:5]\nsurface(file = "height.png");')
    const png = grayscalePng([
      [0, 64, 128, 255],
      [64, 128, 255, 128],
      [128, 255, 128, 64],
      [255, 128, 64, 0],
    ])
    expect((await upload('height.png', png)).status).toBe(201)
    // OpenSCAD puts one vertex per pixel, 1 mm apart: 4 x 4 pixels span 3 x 3 mm; white is 100 high.
    const { boundingBox } = await objectInfo()
    expect(boundingBox).toMatchObject({ minX: 0, maxX: 3, minY: 0, maxY: 3, maxZ: 100 })
    expect(boundingBox.minZ).toBeLessThan(0)
  })

  it('refuses (422) a file parameter set to an id that is not a file of this session', async () => {
    const { session, token, upload, setValues } = await setup(LOGO_MODEL)
    await upload('logo.svg', SVG_RECTANGLE)
    const { upload: uploadElsewhere } = await setup(LOGO_MODEL)
    const { name: foreignId } = await (await uploadElsewhere('logo.svg', SVG_RECTANGLE)).json()

    await expectError(await setValues({ logo: { value: 'notAFileId' } }), 422, 'unprocessable_entity', /logo: /)
    await expectError(await setValues({ logo: { value: foreignId } }), 422, 'unprocessable_entity', /logo: /)
    await expectError(await setValues({ logo: { value: 'logo.svg' } }), 422, 'unprocessable_entity', /logo: /)
    await expectError(await setValues({ logo: { value: 7 } }), 422, 'unprocessable_entity', /logo: /)
    const parameters = await (await api('GET', `/configsessions/${session.id}/parameters`, { token })).json()
    expect(parameters.logo.value).toBe('')
  })

  it('does not let a session file named like a configurator directory break the model', async () => {
    const { configuratorId, session, token, upload, objectInfo } = await setup(
      'width = 10; // [10:20]\ninclude <parts/lid.scad>\ncube([width, 20, 30]);',
    )
    expect(
      (
        await api('PUT', `/configurators/${configuratorId}/files/configurator/parts/lid.scad`, {
          token,
          body: 'module lid() {}',
        })
      ).status,
    ).toBe(202)
    await upload('parts', 'not a directory')
    expect(Object.keys(await (await api('GET', `/configsessions/${session.id}/parameters`, { token })).json())).toEqual(
      ['width'],
    )
    expect((await objectInfo()).boundingBox).toEqual({ minX: 0, maxX: 10, minY: 0, maxY: 20, minZ: 0, maxZ: 30 })
  })

  it("does not let a session file replace the configurator's own files", async () => {
    // A customer's upload named like the main file must not swap the product's model for its own.
    const { upload, objectInfo } = await setup('width = 10; // [10:20]\ncube([width, 20, 30]);')
    await upload('main.scad', 'width = 10; // [10:20]\ncube([99, 99, 99]);')
    const { boundingBox } = await objectInfo()
    expect(boundingBox).toEqual({ minX: 0, maxX: 10, minY: 0, maxY: 20, minZ: 0, maxZ: 30 })
  })
})
