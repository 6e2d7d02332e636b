import { strToU8, zipSync, type Zippable } from 'fflate'
import { describe, expect, it } from 'vitest'
import * as configurators from '@/lib/configurators/operations'
import { ZObjectInfo } from '@/lib/sessions/schemas'
import { api, readBody } from '@/test/support/api-client'
import { createConfigurator, expectError, signUp } from '@/test/support/fixtures'

// A project as designers zip it: a folder holding the main file, includes in sub-folders that
// include each other by relative paths, and an STL the model imports.

const ASCII_STL = `solid cube
${[
  [0, 0, 0, 1, 0, 0, 1, 1, 0],
  [0, 0, 0, 1, 1, 0, 0, 1, 0],
  [0, 0, 1, 1, 1, 1, 1, 0, 1],
  [0, 0, 1, 0, 1, 1, 1, 1, 1],
  [0, 0, 0, 1, 0, 1, 1, 0, 0],
  [0, 0, 0, 0, 0, 1, 1, 0, 1],
  [0, 1, 0, 1, 1, 0, 1, 1, 1],
  [0, 1, 0, 1, 1, 1, 0, 1, 1],
  [0, 0, 0, 0, 1, 0, 0, 1, 1],
  [0, 0, 0, 0, 1, 1, 0, 0, 1],
  [1, 0, 0, 1, 1, 1, 1, 1, 0],
  [1, 0, 0, 1, 0, 1, 1, 1, 1],
]
  .map(
    (v) =>
      `facet normal 0 0 0\nouter loop\n${[0, 6, 3].map((i) => `vertex ${v[i]} ${v[i + 1]} ${v[i + 2]}`).join('\n')}\nendloop\nendfacet`,
  )
  .join('\n')}
endsolid cube
`

const PROJECT: Zippable = {
  'tray-project': {
    'tray.scad': strToU8(
      'include <lib/dims.scad>\nuse ' +
        '<lib/shapes/block.scad>\nwidth = 20; // ' +
        '[10:50]\nblock(width, DEPTH, ' +
        'HEIGHT);\ntranslate([100, ' +
        '0, 0]) import("data/unit.stl");\n',
    ),
    lib: {
      'dims.scad': strToU8('include <more/height.scad>\nDEPTH = 10;\n'),
      more: { 'height.scad': strToU8('HEIGHT = 5;\n') },
      shapes: { 'block.scad': strToU8('module block(w, d, h) cube([w, d, h]);\n') },
    },
    data: { 'unit.stl': strToU8(ASCII_STL) },
  },
  __MACOSX: { 'tray-project': { '._tray.scad': strToU8('resource fork') } },
}

async function owned() {
  const owner = await signUp()
  return { owner, configuratorId: await createConfigurator(owner.token, { mainFile: 'main.scad' }) }
}

function upload(token: string, configuratorId: string, zip: Uint8Array, query = '') {
  return api('POST', `/configurators/${configuratorId}/archives${query}`, {
    token,
    body: zip,
    headers: { 'content-type': 'application/zip' },
  })
}

async function paths(token: string, configuratorId: string): Promise<string[]> {
  return (
    await readBody(
      await api('GET', `/configurators/${configuratorId}/files`, { token }),
      configurators.listConfiguratorFiles,
    )
  ).map((file) => file.path)
}

describe('POST /configurators/{id}/archives', () => {
  it('unpacks a project with its folders, finds its main file, and builds it with relative includes and imports', async () => {
    const { owner, configuratorId } = await owned()
    const answer = await readBody(
      await upload(owner.token, configuratorId, zipSync(PROJECT)),
      configurators.uploadConfiguratorArchive,
    )
    expect(answer.mainFile).toBe('tray.scad')
    const stored = [
      'configurator/data/unit.stl',
      'configurator/lib/dims.scad',
      'configurator/lib/more/height.scad',
      'configurator/lib/shapes/block.scad',
      'configurator/tray.scad',
    ]
    expect(answer.files.map((file) => file.path)).toEqual(stored)
    expect(await paths(owner.token, configuratorId)).toEqual(stored)
    expect(
      (
        await readBody(
          await api('GET', `/configurators/${configuratorId}`, { token: owner.token }),
          configurators.getConfigurator,
        )
      ).mainFile,
    ).toBe('tray.scad')

    const session = (await (
      await api('POST', '/configsessions', { token: owner.token, body: { configuratorId } })
    ).json()) as { id: string }
    const info = ZObjectInfo.parse(
      await (await api('GET', `/configsessions/${session.id}/objectinfo`, { token: owner.token })).json(),
    )
    expect(info.boundingBox).toMatchObject({ minX: 0, maxX: 101, maxY: 10, maxZ: 5 })
    expect(info.volume).toBeCloseTo(20 * 10 * 5 + 1, 3)
  })

  it('keeps non-ASCII file and folder names, which includes find', async () => {
    const { owner, configuratorId } = await owned()
    const zip = zipSync({
      'main.scad': strToU8('include <Teile für Größe/maße.scad>\ncube(MASS);\n'),
      'Teile für Größe': { 'maße.scad': strToU8('MASS = 7;\n') },
    })
    const { files } = await readBody(
      await upload(owner.token, configuratorId, zip),
      configurators.uploadConfiguratorArchive,
    )
    expect(files.map((file) => file.path).sort()).toEqual([
      'configurator/Teile für Größe/maße.scad',
      'configurator/main.scad',
    ])
    const session = (await (
      await api('POST', '/configsessions', { token: owner.token, body: { configuratorId } })
    ).json()) as { id: string }
    const info = ZObjectInfo.parse(
      await (await api('GET', `/configsessions/${session.id}/objectinfo`, { token: owner.token })).json(),
    )
    expect(info.volume).toBeCloseTo(343, 3)
  })

  it('replaces files of the same path and keeps the others, or with ?replace=true replaces the folder', async () => {
    const { owner, configuratorId } = await owned()
    for (const path of ['configurator/main.scad', 'configurator/notes.txt', 'renderer/scene.json']) {
      expect(
        (await api('PUT', `/configurators/${configuratorId}/files/${path}`, { token: owner.token, body: 'cube(1);' }))
          .status,
      ).toBe(202)
    }
    const zip = zipSync({ 'main.scad': strToU8('cube(2);\n'), parts: { 'lid.scad': strToU8('cube(3);\n') } })
    expect((await upload(owner.token, configuratorId, zip)).status).toBe(200)
    expect(await paths(owner.token, configuratorId)).toEqual([
      'configurator/main.scad',
      'configurator/notes.txt',
      'configurator/parts/lid.scad',
      'renderer/scene.json',
    ])
    expect(
      await (
        await api('GET', `/configurators/${configuratorId}/files/configurator/main.scad`, { token: owner.token })
      ).text(),
    ).toBe('cube(2);\n')

    expect(
      (await upload(owner.token, configuratorId, zipSync({ 'main.scad': strToU8('cube(4);\n') }), '?replace=true'))
        .status,
    ).toBe(200)
    expect(await paths(owner.token, configuratorId)).toEqual(['configurator/main.scad', 'renderer/scene.json'])
  })

  it('answers 409 listing the candidates when the main file is unclear, and takes the one chosen', async () => {
    const { owner, configuratorId } = await owned()
    const zip = zipSync({
      'bin.scad': strToU8('cube(1);\n'),
      'base.scad': strToU8('cube(2);\n'),
      lib: { 'util.scad': strToU8('x = 1;\n') },
    })
    const error = await expectError(
      await upload(owner.token, configuratorId, zip),
      409,
      'conflict',
      /base\.scad, bin\.scad; choose one with \?mainFile=/,
    )
    expect(error.fields?.map((field) => field.message)).toEqual(['base.scad', 'bin.scad'])
    expect(await paths(owner.token, configuratorId)).toEqual([])

    await expectError(
      await upload(owner.token, configuratorId, zip, '?mainFile=other.scad'),
      422,
      'unprocessable_entity',
      /mainFile: the archive has no file other\.scad/,
    )
    expect(
      (
        await readBody(
          await upload(owner.token, configuratorId, zip, '?mainFile=bin.scad'),
          configurators.uploadConfiguratorArchive,
        )
      ).mainFile,
    ).toBe('bin.scad')
  })

  it('refuses hostile archives and leaves nothing behind', async () => {
    const { owner, configuratorId } = await owned()
    const text = strToU8('cube(1);\n')
    const hostile: [string, Uint8Array, number, RegExp][] = [
      ['zip slip', zipSync({ 'main.scad': text, '../escape.scad': text }), 400, /dot segment|\.\./],
      ['an absolute path', zipSync({ 'main.scad': text, '/etc/cron.d/x': text }), 400, /absolute paths/],
      [
        'a symlink',
        zipSync({ 'main.scad': text, link: [strToU8('/etc/passwd'), { os: 3, attrs: 0o120777 << 16 }] }),
        400,
        /symbolic links/,
      ],
      [
        'a bomb',
        zipSync({ 'main.scad': text, 'bomb.stl': [new Uint8Array(8 * 1024 * 1024), { level: 9 }] }),
        400,
        /compression ratio/,
      ],
      [
        'too many entries',
        zipSync(Object.fromEntries(Array.from({ length: 1001 }, (_, index) => [`f${index}.scad`, text]))),
        400,
        /more than 1000 entries/,
      ],
      ['no zip at all', strToU8('PK but not really'), 400, /not a valid zip/],
      ['no .scad file', zipSync({ 'readme.txt': text }), 422, /body: the archive holds no \.scad file/],
    ]
    for (const [, zip, status, message] of hostile) {
      await expectError(
        await upload(owner.token, configuratorId, zip),
        status,
        status === 400 ? 'bad_request' : 'unprocessable_entity',
        message,
      )
    }
    expect(await paths(owner.token, configuratorId)).toEqual([])
  })

  it("is the owner's alone, and a zip PUT as a file stays a file", async () => {
    const { owner, configuratorId } = await owned()
    const stranger = await signUp()
    await expectError(
      await upload(stranger.token, configuratorId, zipSync({ 'main.scad': strToU8('cube(1);') })),
      404,
      'not_found',
    )
    const zip = zipSync({ 'main.scad': strToU8('cube(1);') })
    expect(
      (
        await api('PUT', `/configurators/${configuratorId}/files/configurator/project.zip`, {
          token: owner.token,
          body: zip,
        })
      ).status,
    ).toBe(202)
    expect(await paths(owner.token, configuratorId)).toEqual(['configurator/project.zip'])
  })
})
