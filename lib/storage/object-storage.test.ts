import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBlobStore } from '@/lib/storage/blob-store'
import { DiskStorage, MissingObjectError, S3Storage, type ObjectStorage } from '@/lib/storage/object-storage'
import { S3RVER_CREDENTIALS, type StartedS3rver, startS3rver } from '@/test/support/s3rver'

// The same contract, run against the disk and against a real S3-compatible server on loopback.
const BUCKET = 'paraform-test'
let root: string
let s3rver: StartedS3rver
let endpoint: string

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'paraform-storage-'))
  s3rver = await startS3rver(root, BUCKET)
  endpoint = s3rver.endpoint
  // s3rver's own account; the SDK reads credentials the standard way.
  Object.assign(process.env, S3RVER_CREDENTIALS)
})

afterAll(async () => {
  await s3rver?.close()
  await fs.rm(root, { recursive: true, force: true })
})

const kinds: [string, () => ObjectStorage][] = [
  ['disk', () => new DiskStorage(path.join(root, 'disk'))],
  ['S3', () => new S3Storage({ bucket: BUCKET, endpoint, region: 'us-east-1', forcePathStyle: true })],
]

function streamOf(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks.shift()
      if (chunk) controller.enqueue(chunk)
      else controller.close()
    },
  })
}

describe.each(kinds)('object storage on %s', (_kind, open) => {
  it('keeps, streams, replaces and deletes objects; a missing one is MissingObjectError', async () => {
    const storage = open()
    const data = new TextEncoder().encode('cube(10);\n')
    await storage.put('cache/a.mesh', data)
    expect(new Uint8Array(await storage.readBuffer('cache/a.mesh'))).toEqual(data)
    expect(new Uint8Array(await new Response(await storage.read('cache/a.mesh')).arrayBuffer())).toEqual(data)

    await storage.put('cache/a.mesh', new TextEncoder().encode('sphere(5);\n'))
    expect((await storage.readBuffer('cache/a.mesh')).toString()).toBe('sphere(5);\n')

    await storage.delete('cache/a.mesh')
    await storage.delete('cache/a.mesh')
    await expect(storage.readBuffer('cache/a.mesh')).rejects.toBeInstanceOf(MissingObjectError)
    await expect(storage.read('cache/never.mesh')).rejects.toBeInstanceOf(MissingObjectError)
  })

  it('moves a local file in: the object holds it and the local copy is gone', async () => {
    const storage = open()
    const local = path.join(root, `upload-${Math.random()}`)
    await fs.writeFile(local, 'a large upload')
    await storage.putFile('blobs/ab/upload', local)
    expect((await storage.readBuffer('blobs/ab/upload')).toString()).toBe('a large upload')
    await expect(fs.stat(local)).rejects.toThrow(/ENOENT/)
  })

  it('stores blobs under their sha256 and streams a large one back in pieces', async () => {
    const blobs = createBlobStore(open(), path.join(root, 'tmp'))
    const piece = new Uint8Array(1024 * 1024).map((_, index) => index % 251)
    const stored = await blobs.put(streamOf(piece, piece, piece, piece, piece), 10 * 1024 * 1024)
    const expected = createHash('sha256')
    for (let i = 0; i < 5; i++) expected.update(piece)
    expect(stored).toEqual({ hash: expected.digest('hex'), size: 5 * piece.byteLength })

    let chunks = 0
    let size = 0
    const reader = (await blobs.read(stored.hash)).getReader()
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      chunks++
      size += next.value.byteLength
    }
    expect(size).toBe(5 * piece.byteLength)
    expect(chunks).toBeGreaterThan(1)
  })

  it('refuses an upload past its limit with 413 and keeps nothing, neither object nor temporary file', async () => {
    const storage = open()
    const tmpDir = path.join(root, `tmp-${Math.random()}`)
    const blobs = createBlobStore(storage, tmpDir)
    const content = new TextEncoder().encode('x'.repeat(1000))
    await expect(blobs.put(streamOf(content, content), 1500)).rejects.toMatchObject({ code: 'payload_too_large' })
    expect(await fs.readdir(tmpDir)).toEqual([])
    const hash = createHash('sha256').update(content).update(content).digest('hex')
    await expect(blobs.readBuffer(hash)).rejects.toBeInstanceOf(MissingObjectError)

    const staged = await blobs.stage(streamOf(content), 1500)
    await staged.discard()
    await expect(blobs.readBuffer(staged.hash)).rejects.toBeInstanceOf(MissingObjectError)
    expect(await fs.readdir(tmpDir)).toEqual([])
  })
})

describe('the S3 bucket', () => {
  it('holds exactly the committed blobs, and no unfinished upload', async () => {
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true })
    const blobs = createBlobStore(
      new S3Storage({ bucket: BUCKET, endpoint, region: 'us-east-1', forcePathStyle: true }),
      path.join(root, 'tmp-list'),
    )
    const { hash } = await blobs.put(streamOf(new TextEncoder().encode('listed')), 100)
    const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `blobs/${hash.slice(0, 2)}/` }))
    expect(listed.Contents?.map((object) => object.Key)).toContain(`blobs/${hash.slice(0, 2)}/${hash}`)
  })
  it('sends a file again when the store drops the connection before answering; 503 when it always does', async () => {
    let drops = 0
    const open = new Set<net.Socket>()
    // Between the client and s3rver: hangs up on the next `drops` connections as their request
    // arrives, as a store does when a kept-alive socket's timeout ends as a request goes out.
    const proxy = net.createServer((client) => {
      open.add(client)
      client.on('close', () => open.delete(client))
      if (drops > 0) {
        drops--
        client.once('data', () => client.destroy())
        return
      }
      const upstream = net.connect(s3rver.port, '127.0.0.1')
      client.pipe(upstream).pipe(client)
      client.on('error', () => upstream.destroy())
      upstream.on('error', () => client.destroy())
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const { port } = proxy.address() as net.AddressInfo
    const storage = new S3Storage({
      bucket: BUCKET,
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
    })
    const local = path.join(root, `dropped-${Math.random()}`)
    try {
      await fs.writeFile(local, 'sent twice')
      drops = 1
      await storage.putFile('blobs/cd/dropped', local)
      expect((await storage.readBuffer('blobs/cd/dropped')).toString()).toBe('sent twice')
      await expect(fs.stat(local)).rejects.toThrow(/ENOENT/)

      await fs.writeFile(local, 'never sent')
      drops = Infinity
      for (const socket of open) socket.destroy()
      await expect(storage.putFile('blobs/cd/never', local)).rejects.toMatchObject({ code: 'service_unavailable' })
      drops = 0
      await expect(storage.readBuffer('blobs/cd/never')).rejects.toBeInstanceOf(MissingObjectError)
    } finally {
      proxy.close()
    }
  })
})
