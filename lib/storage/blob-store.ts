import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { tooLarge } from '@/lib/api/read-body'
import { env } from '@/lib/env'
import { storage, type ObjectStorage } from '@/lib/storage/object-storage'

/** A file of a model (configurator, session or library file) by its path and the blob that holds it. */
export interface StoredFile {
  path: string
  blobHash: string
}

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
  read(hash: string): Promise<ReadableStream<Uint8Array>>
  readBuffer(hash: string): Promise<Buffer>
}

/**
 * Blobs in the object storage. An upload is spooled to a local temporary file while its size
 * is checked and its hash computed, and stored under its hash only once it is whole and allowed.
 */
class StoredBlobStore implements BlobStore {
  constructor(
    private readonly objects: ObjectStorage,
    private readonly tmpDir: string,
  ) {}

  private keyOf(hash: string): string {
    return `blobs/${hash.slice(0, 2)}/${hash}`
  }

  async put(body: ReadableStream<Uint8Array> | null, limit: number): Promise<StoredBlob> {
    const staged = await this.stage(body, limit)
    await staged.commit()
    return { hash: staged.hash, size: staged.size }
  }

  async stage(body: ReadableStream<Uint8Array> | null, limit: number): Promise<StagedBlob> {
    await fs.mkdir(this.tmpDir, { recursive: true })
    const tmpPath = path.join(this.tmpDir, randomUUID())
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
    return {
      hash: digest,
      size,
      // Same key means same content, so replacing an existing blob is harmless.
      commit: () => this.objects.putFile(this.keyOf(digest), tmpPath).finally(discard),
      discard,
    }
  }

  read(hash: string): Promise<ReadableStream<Uint8Array>> {
    return this.objects.read(this.keyOf(hash))
  }

  readBuffer(hash: string): Promise<Buffer> {
    return this.objects.readBuffer(this.keyOf(hash))
  }
}

export function createBlobStore(objects: ObjectStorage, tmpDir: string): BlobStore {
  return new StoredBlobStore(objects, tmpDir)
}

export const blobStore: BlobStore = createBlobStore(storage, path.join(env.DATA_DIR, 'tmp'))
