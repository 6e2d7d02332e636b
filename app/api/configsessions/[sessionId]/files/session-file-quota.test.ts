import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { api } from '@/test/support/api-client'
import { expectError, openSession } from '@/test/support/fixtures'

const { SESSION_FILE_MAX_BYTES: FILE_MAX, SESSION_FILES_MAX_BYTES: TOTAL_MAX, SESSION_FILES_MAX_COUNT: COUNT_MAX } = env
const CHUNK = 64 * 1024

/** Every file the blob store holds, finished or in progress. */
async function storedFiles(): Promise<string[]> {
  const entries = await fs.readdir(env.DATA_DIR, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(env.DATA_DIR, path.join(entry.parentPath, entry.name)))
    .filter((file) => /^(blobs|tmp)\//.test(file))
    .sort()
}

/** A body of `size` random bytes in 64 KB chunks, without a length, counting what was read of it. */
function countedStream(size: number) {
  const counter = { pulled: 0 }
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= size) return controller.close()
      const chunk = new Uint8Array(randomBytes(Math.min(CHUNK, size - counter.pulled)))
      counter.pulled += chunk.length
      controller.enqueue(chunk)
    },
  })
  return { stream, counter }
}

async function setup() {
  const opened = await openSession('cube(1);')
  const { session, token } = opened
  const upload = (name: string, body: string | Uint8Array | ReadableStream<Uint8Array>) =>
    api('POST', `/configsessions/${session.id}/files?name=${encodeURIComponent(name)}`, { token, body })
  const rows = () => db.sessionFile.findMany({ where: { sessionId: session.id }, orderBy: { name: 'asc' } })
  return { ...opened, upload, rows }
}

describe('session file quota', () => {
  it('the test limits leave room for the cases below', () => {
    expect(TOTAL_MAX).toBeGreaterThan(2 * FILE_MAX)
    expect(TOTAL_MAX).toBeLessThan(4 * FILE_MAX)
  })

  it(`holds at most ${COUNT_MAX} files; uploading a name again replaces it and does not count twice`, async () => {
    const { upload, rows } = await setup()
    for (let index = 0; index < COUNT_MAX; index++)
      expect((await upload(`f${index}.txt`, `file ${index}`)).status).toBe(201)
    const before = await storedFiles()

    await expectError(
      await upload('one-more.txt', 'x'),
      413,
      'payload_too_large',
      new RegExp(`at most ${COUNT_MAX} files`),
    )
    expect((await rows()).map((row) => row.name)).not.toContain('one-more.txt')
    expect(await storedFiles()).toEqual(before)

    expect((await upload('f0.txt', 'replaced')).status).toBe(201)
    expect(await rows()).toHaveLength(COUNT_MAX)
  })

  it('refuses a file over the size limit while it streams, and keeps nothing of it', async () => {
    const { upload, rows } = await setup()
    const before = await storedFiles()
    const { stream, counter } = countedStream(3 * FILE_MAX)

    await expectError(
      await upload('big.bin', stream),
      413,
      'payload_too_large',
      new RegExp(`at most ${FILE_MAX} bytes \\(SESSION_FILE_MAX_BYTES\\)`),
    )

    // Reading stopped at the limit (plus what the stream buffers ahead), not at the end of the body.
    expect(counter.pulled).toBeLessThanOrEqual(FILE_MAX + 4 * CHUNK)
    expect(await rows()).toEqual([])
    expect(await storedFiles()).toEqual(before)
  })

  it('refuses a file at once when its declared length is over the limit', async () => {
    const { session, token, rows } = await setup()
    const response = await api('POST', `/configsessions/${session.id}/files?name=big.bin`, {
      token,
      body: new Uint8Array(FILE_MAX + 1),
      headers: { 'content-length': String(FILE_MAX + 1) },
    })
    await expectError(response, 413, 'payload_too_large', /SESSION_FILE_MAX_BYTES/)
    expect(await rows()).toEqual([])
  })

  it('refuses what would pass the total of a session, counting a replaced file out', async () => {
    const { upload, rows } = await setup()
    expect((await upload('a.bin', new Uint8Array(randomBytes(FILE_MAX)))).status).toBe(201)
    expect((await upload('b.bin', new Uint8Array(randomBytes(FILE_MAX)))).status).toBe(201)
    const room = TOTAL_MAX - 2 * FILE_MAX
    const before = await storedFiles()

    const { stream, counter } = countedStream(room + 1)
    await expectError(
      await upload('c.bin', stream),
      413,
      'payload_too_large',
      new RegExp(`at most ${TOTAL_MAX} bytes together`),
    )
    expect(counter.pulled).toBeLessThanOrEqual(room + 4 * CHUNK)
    expect(await storedFiles()).toEqual(before)

    // Replacing a.bin frees its bytes first: a full-size file of that name still fits.
    expect((await upload('a.bin', new Uint8Array(randomBytes(FILE_MAX)))).status).toBe(201)
    expect((await upload('c.bin', new Uint8Array(randomBytes(room)))).status).toBe(201)
    const stored = await rows()
    expect(stored.map((row) => row.size)).toEqual([FILE_MAX, FILE_MAX, room])
  })

  it('lets a parallel burst of uploads store only what fits together, and nothing of the rest', async () => {
    const { upload, rows } = await setup()
    const size = Math.floor(FILE_MAX * 0.9)
    const fits = Math.floor(TOTAL_MAX / size)
    const bodies = Array.from({ length: fits + 4 }, () => new Uint8Array(randomBytes(size)))
    const before = await storedFiles()

    const responses = await Promise.all(bodies.map((body, index) => upload(`burst-${index}.bin`, body)))

    const accepted = responses.filter((response) => response.status === 201)
    const refused = responses.filter((response) => response.status !== 201)
    expect(accepted).toHaveLength(fits)
    for (const response of refused) await expectError(response, 413, 'payload_too_large', /SESSION_FILES_MAX_BYTES/)
    const stored = await rows()
    expect(stored).toHaveLength(fits)
    expect(stored.reduce((sum, row) => sum + row.size, 0)).toBeLessThanOrEqual(TOTAL_MAX)
    // Exactly the accepted files' blobs were added: the refused ones left no blob or temporary file.
    const added = (await storedFiles()).filter((file) => !before.includes(file))
    expect(added.map((file) => path.basename(file)).sort()).toEqual(stored.map((row) => row.blobHash).sort())
  })

  it('applies the same quota to the built-in files service', async () => {
    const { session, token, rows } = await setup()
    const { stream } = countedStream(FILE_MAX + 1)
    const response = await api('PUT', `/services/files/upload/configsessions/${session.id}/big.bin`, {
      token,
      body: stream,
    })
    await expectError(response, 413, 'payload_too_large', /SESSION_FILE_MAX_BYTES/)
    expect(await rows()).toEqual([])
  })

  it('refuses a restore zip whose session files pass the quota, before any session or blob exists', async () => {
    const { configuratorId, token } = await setup()
    const files = Object.fromEntries(
      Array.from({ length: COUNT_MAX + 1 }, (_, index) => [`files/id${index}/f${index}.txt`, strToU8(`file ${index}`)]),
    )
    const sessionsBefore = await db.configSession.count({ where: { configuratorId } })
    const before = await storedFiles()

    const response = await api('POST', `/configsessions?configuratorId=${configuratorId}`, {
      token,
      body: zipSync({ 'parameters.json': strToU8('{}'), ...files }),
      headers: { 'content-type': 'application/zip' },
    })

    await expectError(response, 413, 'payload_too_large', /SESSION_FILES_MAX_COUNT/)
    expect(await db.configSession.count({ where: { configuratorId } })).toBe(sessionsBefore)
    expect(await storedFiles()).toEqual(before)
  })

  it('refuses a restore zip on the sizes its entries declare, before inflating any', async () => {
    const { configuratorId, token } = await setup()
    // Two entries declaring more than a session file may hold (within the ratio limit), one corrupt and one holding less: inflating would fail otherwise.
    const zip = zipSync({
      'parameters.json': strToU8('{}'),
      'files/a/big.bin': [randomBytes(50_000), { level: 9 }],
      'files/b/big.bin': [randomBytes(50_000), { level: 9 }],
    })
    const view = new DataView(zip.buffer)
    const nameAt = (at: number, offset: number) => Buffer.from(zip.subarray(at + offset, at + offset + 15)).toString()
    for (let at = 0; at + 4 <= zip.length; at++) {
      const signature = view.getUint32(at, true)
      if (signature === 0x04034b50 && nameAt(at, 30).endsWith('/big.bin')) {
        view.setUint32(at + 22, FILE_MAX + 1, true)
        if (nameAt(at, 30) === 'files/a/big.bin') zip.fill(0xff, at + 45, at + 53)
      }
      if (signature === 0x02014b50 && nameAt(at, 46).endsWith('/big.bin')) view.setUint32(at + 24, FILE_MAX + 1, true)
    }

    const response = await api('POST', `/configsessions?configuratorId=${configuratorId}`, {
      token,
      body: zip,
      headers: { 'content-type': 'application/zip' },
    })

    await expectError(response, 413, 'payload_too_large', /SESSION_FILE_MAX_BYTES/)
  })
})
