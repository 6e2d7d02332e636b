import fs from 'node:fs'
import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { installLibraryFrom } from '@/lib/libraries/libraries'
import * as libraries from '@/lib/libraries/operations'
import * as sessions from '@/lib/sessions/operations'
import { api, readBody } from '@/test/support/api-client'
import { expectError, openSession, signUp } from '@/test/support/fixtures'

// MCAD as Debian packages it (`apt-get install openscad-mcad`, which .ci/run does): a real
// library, installed as `npm run library -- add` installs it.
const MCAD_DIR = process.env.MCAD_DIR ?? '/usr/share/openscad/libraries/MCAD'

type Opened = Awaited<ReturnType<typeof openSession>>

async function objectInfoOf({ session, token }: Opened) {
  return readBody(await api('GET', `/configsessions/${session.id}/objectinfo`, { token }), sessions.getObjectInfo)
}

function install(token: string, zip: Uint8Array, query = '') {
  return api('POST', `/libraries${query}`, { token, body: zip, headers: { 'content-type': 'application/zip' } })
}

describe('shared libraries', () => {
  it('installs MCAD from its folder once for every configurator, by use and by include', async () => {
    const library = await installLibraryFrom(MCAD_DIR)
    expect(library).toMatchObject({
      name: 'MCAD',
      fileCount: fs
        .readdirSync(MCAD_DIR, { recursive: true })
        .filter((name) => fs.statSync(`${MCAD_DIR}/${String(name)}`).isFile()).length,
    })
    const designer = await signUp()
    const listed = await readBody(await api('GET', '/libraries', { token: designer.token }), libraries.listLibraries)
    expect(listed.find((entry) => entry.name === 'MCAD')).toEqual(
      expect.objectContaining({ contentHash: library.contentHash, sizeBytes: library.sizeBytes }),
    )

    const used = await openSession('use <MCAD/boxes.scad>\nroundedBox([20, 30, 10], 2, true);\n')
    const box = await objectInfoOf(used)
    expect(box.boundingBox).toMatchObject({ minX: -10, maxX: 10, minY: -15, maxY: 15, minZ: -5, maxZ: 5 })
    expect(box.volume).toBeLessThan(20 * 30 * 10)
    expect(box.volume).toBeGreaterThan(20 * 30 * 10 * 0.9)

    const included = await openSession('include <MCAD/units.scad>\ncube([inch, 10, 10]);\n')
    expect((await objectInfoOf(included)).boundingBox.maxX).toBeCloseTo(25.4, 4)
  })

  it('are replaced by an admin without any stale model: the content hash is part of the build key', async () => {
    const admin = await signUp('admin')
    const version = (size: number) =>
      zipSync({ 'shapes-main': { 'part.scad': strToU8(`module part() cube(${size});\n`) } })
    const first = await readBody(await install(admin.token, version(5)), libraries.installLibrary)
    expect(first).toMatchObject({ name: 'shapes', fileCount: 1 })
    const opened = await openSession('use <shapes/part.scad>\npart();\n')
    expect((await objectInfoOf(opened)).volume).toBeCloseTo(125, 3)

    const second = await readBody(await install(admin.token, version(6)), libraries.installLibrary)
    expect(second.contentHash).not.toBe(first.contentHash)
    expect((await objectInfoOf(opened)).volume).toBeCloseTo(216, 3)

    expect((await api('DELETE', '/libraries/shapes', { token: admin.token })).status).toBe(204)
    const log = await readBody(
      await api('GET', `/configsessions/${opened.session.id}/log`, { token: opened.token }),
      sessions.getLog,
    )
    expect(log.error).toMatch(/Can't open library 'shapes\/part.scad'/)
    await expectError(await api('DELETE', '/libraries/shapes', { token: admin.token }), 404, 'not_found')
    // A name holding a NUL is no library's, as any id holding one is nothing's.
    for (const name of ['%00', 'a%00b'])
      await expectError(await api('DELETE', `/libraries/${name}`, { token: admin.token }), 404, 'not_found')
  })

  it('are installed by admins only, from archives checked like any upload, under a safe name', async () => {
    const designer = await signUp()
    const admin = await signUp('admin')
    const zip = zipSync({ 'lib.scad': strToU8('x = 1;\n') })
    await expectError(await install(designer.token, zip, '?name=mine'), 403, 'forbidden')
    await expectError(await install(admin.token, zip), 422, 'unprocessable_entity', /query.name: is needed/)
    await expectError(
      await install(admin.token, zip, '?name=..%2Fescape'),
      422,
      'unprocessable_entity',
      /name: must be 1 to 64 letters/,
    )
    await expectError(
      await install(
        admin.token,
        zipSync({ 'lib.scad': strToU8('x = 1;\n'), '../evil.scad': strToU8('x = 2;\n') }),
        '?name=evil',
      ),
      400,
      'bad_request',
    )
    const listed = await readBody(await api('GET', '/libraries', { token: admin.token }), libraries.listLibraries)
    expect(listed.map((entry) => entry.name)).not.toContain('evil')
    expect(listed.map((entry) => entry.name)).not.toContain('mine')
  })
})
