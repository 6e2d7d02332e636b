import { createHash, randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { env } from '@/lib/env'
import { tooLarge } from '@/lib/api/read-body'

export interface StoredBlob {
  hash: string
  size: number
}

/** Content streamed in but not yet stored: `commit` keeps it, `discard` drops it (no-op after commit). */
export interface StagedBlob extends StoredBlob {
  commit(): Promise<void>
  discard(): Promise<void>
}

/** Content-addressed storage: one copy per distinct content, named by its sha256. */
export interface BlobStore {
  /** Streams `body` in, refusing with 413 past `limit` bytes; nothing is kept on failure. */
  put(body: ReadableStream<Uint8Array> | null, limit: number): Promise<StoredBlob>
  /** As `put`, but the content is stored only on `commit`, so a caller may still refuse it. */
  stage(body: ReadableStream<Uint8Array> | null, limit: number): Promise<StagedBlob>
  read(hash: string): ReadableStream<Uint8Array>
  readBuffer(hash: string): Promise<Buffer>
}

class DiskBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private blobPath(hash: string): string {
    return path.join(this.root, 'blobs', hash.slice(0, 2), hash)
  }

  async put(body: ReadableStream<Uint8Array> | null, limit: number): Promise<StoredBlob> {
    const staged = await this.stage(body, limit)
    await staged.commit()
    return { hash: staged.hash, size: staged.size }
  }

  async stage(body: ReadableStream<Uint8Array> | null, limit: number): Promise<StagedBlob> {
    const tmpDir = path.join(this.root, 'tmp')
    await fs.mkdir(tmpDir, { recursive: true })
    const tmpPath = path.join(tmpDir, randomUUID())
    const hash = createHash('sha256')
    let size = 0
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length
        if (size > limit) return callback(tooLarge(limit))
        hash.update(chunk)
        callback(null, chunk)
      },
    })
    const discard = () => fs.rm(tmpPath, { force: true })
    try {
      const source = body ? Readable.fromWeb(body as import('node:stream/web').ReadableStream) : Readable.from([])
      await pipeline(source, meter, createWriteStream(tmpPath, { flags: 'wx' }))
    } catch (error) {
      await discard()
      throw error
    }
    const digest = hash.digest('hex')
    const target = this.blobPath(digest)
    return {
      hash: digest,
      size,
      commit: async () => {
        await fs.mkdir(path.dirname(target), { recursive: true })
        // Same name means same content, so replacing an existing blob is harmless.
        await fs.rename(tmpPath, target)
      },
      discard,
    }
  }

  read(hash: string): ReadableStream<Uint8Array> {
    return Readable.toWeb(createReadStream(this.blobPath(hash))) as ReadableStream<Uint8Array>
  }

  readBuffer(hash: string): Promise<Buffer> {
    return fs.readFile(this.blobPath(hash))
  }
}

export const blobStore: BlobStore = new DiskBlobStore(env.DATA_DIR)
