import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { api } from '@/test/support/api-client'
import { createConfigurator, expectError, signUp } from '@/test/support/fixtures'

const MB = 1024 * 1024

async function setup() {
  const owner = await signUp()
  const id = await createConfigurator(owner.token)
  const upload = (filePath: string, body: unknown, headers: Record<string, string> = {}) =>
    api('PUT', `/configurators/${id}/files/${filePath}`, { token: owner.token, body, headers })
  const list = async () =>
    (await (await api('GET', `/configurators/${id}/files`, { token: owner.token })).json()) as { path: string }[]
  return { owner, id, upload, list }
}

function blobFiles(): string[] {
  const root = path.join(process.env.DATA_DIR!, 'blobs')
  return fs.existsSync(root)
    ? fs
        .readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : []
}

function tmpFiles(): string[] {
  const root = path.join(process.env.DATA_DIR!, 'tmp')
  return fs.existsSync(root) ? fs.readdirSync(root) : []
}

describe('configurator files', () => {
  it('uploads (202), lists, reads and deletes files in both trees and nested directories', async () => {
    const { owner, id, upload, list } = await setup()
    expect((await upload('configurator/main.scad', 'cube(10);')).status).toBe(202)
    expect((await upload('configurator/parts/lid/lid.scad', 'sphere(2);')).status).toBe(202)
    expect((await upload('renderer/scene.json', '{"materials":{}}')).status).toBe(202)

    const files = await list()
    expect(files).toEqual([
      {
        path: 'configurator/main.scad',
        size: 9,
        contentType: 'text/x-openscad',
        updatedAt: expect.stringMatching(/^\d{4}-/),
      },
      {
        path: 'configurator/parts/lid/lid.scad',
        size: 10,
        contentType: 'text/x-openscad',
        updatedAt: expect.any(String),
      },
      { path: 'renderer/scene.json', size: 16, contentType: 'application/json', updatedAt: expect.any(String) },
    ])

    const read = await api('GET', `/configurators/${id}/files/configurator/parts/lid/lid.scad`, { token: owner.token })
    expect(read.status).toBe(200)
    expect(read.headers.get('content-type')).toBe('text/x-openscad')
    expect(await read.text()).toBe('sphere(2);')

    expect((await upload('configurator/main.scad', 'cube(20);')).status).toBe(202)
    expect(
      await (await api('GET', `/configurators/${id}/files/configurator/main.scad`, { token: owner.token })).text(),
    ).toBe('cube(20);')

    expect((await api('DELETE', `/configurators/${id}/files/renderer/scene.json`, { token: owner.token })).status).toBe(
      204,
    )
    expect((await list()).map((file) => file.path)).toEqual([
      'configurator/main.scad',
      'configurator/parts/lid/lid.scad',
    ])
    await expectError(
      await api('GET', `/configurators/${id}/files/renderer/scene.json`, { token: owner.token }),
      404,
      'not_found',
    )
    await expectError(
      await api('DELETE', `/configurators/${id}/files/renderer/scene.json`, { token: owner.token }),
      404,
      'not_found',
    )
  })

  it('stores identical content once in the blob store', async () => {
    const { upload } = await setup()
    const content = `unique content ${Math.random()}`
    const hash = createHash('sha256').update(content).digest('hex')
    await upload('configurator/a.scad', content)
    await upload('configurator/b.scad', content)
    await upload('renderer/c.txt', content)
    expect(blobFiles().filter((name) => name === hash)).toHaveLength(1)
  })

  it('copies a file from another configurator of the same user, ignoring the body', async () => {
    const { owner, id, upload } = await setup()
    await upload('configurator/main.scad', 'cylinder(h=5, r=2);')
    const otherId = await createConfigurator(owner.token)
    const copy = await api('PUT', `/configurators/${otherId}/files/configurator/lib/base.scad`, {
      token: owner.token,
      body: 'this body is ignored',
      headers: { 'service-copy-source': `configurators/${id}/files/configurator/main.scad` },
    })
    expect(copy.status).toBe(202)
    const read = await api('GET', `/configurators/${otherId}/files/configurator/lib/base.scad`, { token: owner.token })
    expect(await read.text()).toBe('cylinder(h=5, r=2);')
  })

  it.each([
    [
      'a file of a configurator the user may not read',
      (otherId: string) => `configurators/${otherId}/files/configurator/main.scad`,
      404,
    ],
    ['a missing file', (_: string, id: string) => `configurators/${id}/files/configurator/missing.scad`, 404],
    ['a malformed source', () => 'somewhere/else', 400],
    [
      'a source path with a dot segment',
      (_: string, id: string) => `configurators/${id}/files/configurator/../main.scad`,
      422,
    ],
  ])('refuses to copy %s', async (_case, source, status) => {
    const { owner, id, upload, list } = await setup()
    await upload('configurator/main.scad', 'cube(1);')
    const stranger = await signUp()
    const otherId = await createConfigurator(stranger.token)
    await api('PUT', `/configurators/${otherId}/files/configurator/main.scad`, {
      token: stranger.token,
      body: 'cube(2);',
    })
    const response = await api('PUT', `/configurators/${id}/files/configurator/copy.scad`, {
      token: owner.token,
      headers: { 'service-copy-source': source(otherId, id) },
    })
    expect(response.status).toBe(status)
    expect((await list()).map((file) => file.path)).toEqual(['configurator/main.scad'])
  })

  it.each([
    ['a first segment other than configurator or renderer', 'models/main.scad', 422],
    ['no file name after the directory', 'configurator', 422],
    ['%2e%2e', 'configurator/%2e%2e/x.scad', 422],
    ['%2F inside a name', 'configurator/a%2Fb.scad', 422],
    ['%5C inside a name', 'configurator/a%5Cb.scad', 422],
    ['a NUL byte', 'configurator/a%00b.scad', 422],
    ['a control character', 'configurator/a%1Bb.scad', 422],
    ['an empty segment', 'configurator/%2F/x.scad', 422],
    ['a name over 255 bytes', `configurator/${'n'.repeat(256)}.scad`, 422],
    ['a multi-byte name over 255 bytes', `configurator/${encodeURIComponent('é'.repeat(128))}`, 422],
    ['a broken percent-encoding', 'configurator/%E0%A4%A.scad', 400],
  ])('refuses a path with %s (%i) and writes nothing', async (_case, filePath, status) => {
    const { upload, list } = await setup()
    const blobsBefore = blobFiles().length
    const error = await expectError(
      await upload(filePath, `hostile ${Math.random()}`),
      status,
      status === 400 ? 'bad_request' : 'unprocessable_entity',
    )
    if (status === 422) expect(error.fields).toEqual([{ path: ['path'], message: expect.any(String) }])
    expect(await list()).toEqual([])
    expect(blobFiles().length).toBe(blobsBefore)
  })

  it('refuses a body over the limit with 413 while streaming, leaving nothing behind', async () => {
    const { upload, list } = await setup()
    const chunk = new Uint8Array(MB).fill(7)
    let pulled = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        if (pulled > 200) controller.close()
        else controller.enqueue(chunk)
      },
    })
    await expectError(await upload('configurator/huge.stl', body), 413, 'payload_too_large', /52428800 bytes/)
    // The 50 MB default stops the upload after about 51 chunks of the 200 on offer.
    expect(pulled).toBeLessThan(60)
    expect(await list()).toEqual([])
    expect(tmpFiles()).toEqual([])
  })

  it('two editors saving the same file with If-Match: the second is 409 naming the current version, and neither edit is lost silently', async () => {
    const { owner, id, upload } = await setup()
    const read = () => api('GET', `/configurators/${id}/files/configurator/main.scad`, { token: owner.token })
    const created = await upload('configurator/main.scad', 'cube(10);')
    const etag = `"${createHash('sha256').update('cube(10);').digest('hex')}"`
    expect(created.headers.get('etag')).toBe(etag)
    expect((await read()).headers.get('etag')).toBe(etag)

    // Both tabs opened that version; the first saves over it and gets its new version's ETag.
    const first = await upload('configurator/main.scad', 'cube(20);', { 'if-match': etag })
    expect(first.status).toBe(202)
    const firstTag = first.headers.get('etag')!
    expect(firstTag).not.toBe(etag)
    const second = await upload('configurator/main.scad', 'cube(30);', { 'if-match': etag })
    await expectError(
      second,
      409,
      'conflict',
      /configurator\/main\.scad changed since the version this save is based on/,
    )
    expect(second.headers.get('etag')).toBe(firstTag)
    expect(await (await read()).text()).toBe('cube(20);')
    // Merged onto the current version, it saves; so does a save naming any of several versions, or * for any.
    expect((await upload('configurator/main.scad', 'cube(25);', { 'if-match': `${etag}, ${firstTag}` })).status).toBe(
      202,
    )
    expect((await upload('configurator/main.scad', 'cube(26);', { 'if-match': '*' })).status).toBe(202)
    // If-Match compares strongly (RFC 9110): the current version as a weak tag never matches, and changes nothing.
    const current = `"${createHash('sha256').update('cube(26);').digest('hex')}"`
    await expectError(
      await upload('configurator/main.scad', 'cube(27);', { 'if-match': `W/${current}` }),
      412,
      'precondition_failed',
      /weak tags/,
    )
    expect(await (await read()).text()).toBe('cube(26);')
    expect(
      (await upload('configurator/main.scad', 'cube(27);', { 'if-match': `W/${current}, ${current}` })).status,
    ).toBe(202)
    // A copy is a save too; a file deleted since is a conflict; a save without If-Match replaces, as the interface says.
    const copy = await upload('configurator/main.scad', '', {
      'service-copy-source': `configurators/${id}/files/configurator/main.scad`,
      'if-match': etag,
    })
    await expectError(copy, 409, 'conflict')
    expect(
      (await api('DELETE', `/configurators/${id}/files/configurator/main.scad`, { token: owner.token })).status,
    ).toBe(204)
    await expectError(
      await upload('configurator/main.scad', 'cube(1);', { 'if-match': firstTag }),
      409,
      'conflict',
      /no longer exists/,
    )
    await expectError(
      await upload('configurator/main.scad', 'cube(1);', { 'if-match': '*' }),
      409,
      'conflict',
      /no longer exists/,
    )
    expect((await upload('configurator/main.scad', 'cube(1);')).status).toBe(202)
  })
})
