import { createReadStream } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { AppError } from '@/lib/api/errors'
import { env } from '@/lib/env'
import { logger } from '@/lib/log'

/**
 * Where everything but database rows is kept (uploaded and session files, built meshes): a
 * folder on this machine, or an S3-compatible bucket that every instance shares. Keys are
 * this server's own (`blobs/ab/ab12...`, `cache/<key>.mesh`), never a client's.
 */
export interface ObjectStorage {
  /** Where the objects are, for people: `DATA_DIR /srv/data on host web1`, `s3://bucket at http://minio:9000`. */
  readonly location: string
  /** Stores the local file at `localPath` under `key` and removes the local file. */
  putFile(key: string, localPath: string): Promise<void>
  put(key: string, data: Uint8Array): Promise<void>
  /** Streams the object; rejects with MissingObjectError when there is none. */
  read(key: string): Promise<ReadableStream<Uint8Array>>
  readBuffer(key: string): Promise<Buffer>
  /** Removes the object; a missing one is fine. */
  delete(key: string): Promise<void>
  /** The keys under `prefix` (`blobs/`), whole objects only. */
  list(prefix: string): AsyncIterable<string>
}

export class MissingObjectError extends Error {
  constructor(readonly key: string) {
    super(`No stored object ${key}`)
    this.name = 'MissingObjectError'
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT'
}

export class DiskStorage implements ObjectStorage {
  constructor(private readonly root: string) {}

  get location(): string {
    return `DATA_DIR ${this.root} on host ${os.hostname()}`
  }

  private pathOf(key: string): string {
    return path.join(this.root, key)
  }

  async putFile(key: string, localPath: string): Promise<void> {
    await fs.mkdir(path.dirname(this.pathOf(key)), { recursive: true })
    // One rename: readers see the whole object or none.
    await fs.rename(localPath, this.pathOf(key))
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const tmp = `${this.pathOf(key)}.${process.pid}.${Date.now()}.tmp`
    await fs.mkdir(path.dirname(tmp), { recursive: true })
    await fs.writeFile(tmp, data)
    await fs.rename(tmp, this.pathOf(key))
  }

  async read(key: string): Promise<ReadableStream<Uint8Array>> {
    const handle = await fs
      .open(this.pathOf(key))
      .catch((error: unknown) => Promise.reject(isMissing(error) ? new MissingObjectError(key) : error))
    return Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>
  }

  readBuffer(key: string): Promise<Buffer> {
    return fs
      .readFile(this.pathOf(key))
      .catch((error: unknown) => Promise.reject(isMissing(error) ? new MissingObjectError(key) : error))
  }

  delete(key: string): Promise<void> {
    return fs.rm(this.pathOf(key), { force: true })
  }

  async *list(prefix: string): AsyncIterable<string> {
    const entries = await fs
      .readdir(this.pathOf(prefix), { recursive: true, withFileTypes: true })
      .catch((error: unknown) => (isMissing(error) ? [] : Promise.reject(error)))
    for (const entry of entries) {
      // An object being written (put's temporary name) is not one yet.
      if (entry.isFile() && !entry.name.endsWith('.tmp'))
        yield path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')
    }
  }
}

/** A store that fails a request is out of reach for now (down, refusing, misconfigured): 503. */
function unavailable(error: unknown): never {
  // The answer names the part; the store's address and its client's words stay in the log.
  logger.error({ err: error }, 'the file store cannot be reached')
  throw new AppError('service_unavailable', 'The file store cannot be reached; try again later')
}

const PUT_FILE_ATTEMPTS = 3

function wasAnswered(error: unknown): boolean {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode !== undefined
}

export interface S3StorageOptions {
  bucket: string
  endpoint?: string
  region: string
  forcePathStyle: boolean
}

/** Any S3-compatible store; credentials come the SDK's standard way (AWS_ACCESS_KEY_ID, ...). */
export class S3Storage implements ObjectStorage {
  private readonly client: S3Client
  private readonly bucket: string
  readonly location: string

  constructor({ bucket, endpoint, region, forcePathStyle }: S3StorageOptions) {
    this.bucket = bucket
    this.location = `s3://${bucket} at ${endpoint ? new URL(endpoint).origin : 'AWS'}`
    // Checksums only where S3 requires them: with the SDK's default, streamed bodies go out
    // aws-chunked with a checksum trailer, which S3-compatible stores such as s3rver store verbatim.
    this.client = new S3Client({
      region,
      forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(endpoint && { endpoint }),
    })
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const { size } = await fs.stat(localPath)
    // One PUT with a known length: no multipart upload is ever left open. The SDK cannot send a
    // stream twice, so a connection dropped before any answer (typically a kept-alive socket the
    // store was closing as the PUT went out) is tried again here, with the file opened afresh.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: key,
            Body: createReadStream(localPath),
            ContentLength: size,
          }),
        )
        break
      } catch (error) {
        if (attempt === PUT_FILE_ATTEMPTS || wasAnswered(error)) unavailable(error)
      }
    }
    await fs.rm(localPath, { force: true })
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    await this.client
      .send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentLength: data.byteLength }))
      .catch(unavailable)
  }

  private async get(key: string) {
    const { Body } = await this.client
      .send(new GetObjectCommand({ Bucket: this.bucket, Key: key }))
      .catch((error: unknown) => {
        if (error instanceof NoSuchKey) throw new MissingObjectError(key)
        return unavailable(error)
      })
    if (!Body) throw new MissingObjectError(key)
    return Body
  }

  async read(key: string): Promise<ReadableStream<Uint8Array>> {
    return (await this.get(key)).transformToWebStream() as ReadableStream<Uint8Array>
  }

  async readBuffer(key: string): Promise<Buffer> {
    return Buffer.from(await (await this.get(key)).transformToByteArray())
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })).catch(unavailable)
  }

  async *list(prefix: string): AsyncIterable<string> {
    let ContinuationToken: string | undefined
    do {
      const page = await this.client
        .send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken }))
        .catch(unavailable)
      for (const { Key } of page.Contents ?? []) if (Key) yield Key
      ContinuationToken = page.NextContinuationToken
    } while (ContinuationToken)
  }
}

export const storage: ObjectStorage = env.S3_BUCKET
  ? new S3Storage({
      bucket: env.S3_BUCKET,
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    })
  : new DiskStorage(env.DATA_DIR)
