import { AppError } from '@/lib/api/errors'
import { tooLarge } from '@/lib/api/read-body'
import { findOwnedConfigurator, type OwnedConfiguratorOptions } from '@/lib/configurators/configurators'
import { ZConfiguratorId } from '@/lib/configurators/schemas'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { formatDateTime } from '@/lib/format-date'
import type { ConfiguratorFile } from '@/lib/generated/prisma/client'
import { blobStore } from '@/lib/storage/blob-store'
import { contentTypeFor } from '@/lib/storage/content-type'
import { parseEncodedPath } from '@/lib/storage/file-path'
import { modelsChanged } from '@/lib/configurators/model-memory'

/** One file of a configurator of the user's, by its path in the configurator. */
export interface ConfiguratorFileOptions extends OwnedConfiguratorOptions {
  path: string
}

export async function listConfiguratorFiles(options: OwnedConfiguratorOptions) {
  await findOwnedConfigurator(options)
  return db.configuratorFile.findMany({ where: { configuratorId: options.configuratorId }, orderBy: { path: 'asc' } })
}

export async function findConfiguratorFile({ path, ...owned }: ConfiguratorFileOptions) {
  await findOwnedConfigurator(owned)
  const file = await db.configuratorFile.findUnique({ where: { configuratorId_path: { configuratorId: owned.configuratorId, path } } })
  if (!file) throw new AppError('not_found', `File ${path} not found`)
  return file
}

/** Points `path` at a stored blob, replacing whatever the path held before. */
async function putConfiguratorFile({ configuratorId, path, ...data }: Pick<ConfiguratorFile, 'configuratorId' | 'path' | 'blobHash' | 'size' | 'contentType'>) {
  const file = await db.configuratorFile.upsert({
    where: { configuratorId_path: { configuratorId, path } },
    create: { configuratorId, path, ...data },
    update: data,
  })
  await modelsChanged()
  return file
}

/** Stores `data` as the file at `path` (written by the server, e.g. a preset file). */
export async function writeConfiguratorFile(configuratorId: string, path: string, data: Uint8Array) {
  const blob = await blobStore.put(new Blob([new Uint8Array(data)]).stream(), env.MAX_UPLOAD_BYTES)
  return putConfiguratorFile({ configuratorId, path, blobHash: blob.hash, size: blob.size, contentType: contentTypeFor(path) })
}

export interface UploadConfiguratorFileOptions extends ConfiguratorFileOptions {
  body: ReadableStream<Uint8Array> | null
  /** Content-Length as declared by the client, checked before any byte is read. */
  declaredSize: number
}

/** Streams the body into the blob store, then points the path at it (replacing any earlier file). */
export async function uploadConfiguratorFile({ configuratorId, userId, path, body, declaredSize }: UploadConfiguratorFileOptions) {
  await findOwnedConfigurator({ configuratorId, userId })
  if (declaredSize > env.MAX_UPLOAD_BYTES) throw tooLarge(env.MAX_UPLOAD_BYTES)
  const blob = await blobStore.put(body, env.MAX_UPLOAD_BYTES)
  return putConfiguratorFile({ configuratorId, path, blobHash: blob.hash, size: blob.size, contentType: contentTypeFor(path) })
}

export interface CopyConfiguratorFileOptions extends ConfiguratorFileOptions {
  /** The `service-copy-source` header: `configurators/{configuratorID}/files/{path}`. */
  source: string
}

/** Copies by reference: the blob store already holds the content, so only the path is new. */
export async function copyConfiguratorFile({ configuratorId, userId, path, source }: CopyConfiguratorFileOptions) {
  const match = /^\/?configurators\/([^/]+)\/files\/(.+)$/.exec(source.trim())
  if (!match?.[1] || !match[2]) {
    throw new AppError('bad_request', 'service-copy-source must be configurators/{configuratorID}/files/{subDir}/{fileName}')
  }
  const sourceId = match[1]
  const sourcePath = parseEncodedPath(match[2]).join('/')
  await findOwnedConfigurator({ configuratorId, userId })
  const original = ZConfiguratorId.safeParse(sourceId).success
    ? await db.configuratorFile.findFirst({
        where: { configuratorId: sourceId, path: sourcePath, configurator: { userId } },
      })
    : null
  if (!original) throw new AppError('not_found', `Copy source ${source} not found`)
  const { blobHash, size, contentType } = original
  return putConfiguratorFile({ configuratorId, path, blobHash, size, contentType })
}

/** Removes the path; the blob stays, since other paths may share the same content. */
export async function deleteConfiguratorFile(options: ConfiguratorFileOptions): Promise<void> {
  await findConfiguratorFile(options)
  await db.configuratorFile.delete({ where: { configuratorId_path: { configuratorId: options.configuratorId, path: options.path } } })
  await modelsChanged()
}

export function toFileEntry(file: ConfiguratorFile) {
  return { path: file.path, size: file.size, contentType: file.contentType, updatedAt: formatDateTime(file.updatedAt) }
}
