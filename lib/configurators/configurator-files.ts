import { AppError } from '@/lib/api/errors'
import { tooLarge } from '@/lib/api/read-body'
import { findOwnedConfigurator, type OwnedConfiguratorOptions } from '@/lib/configurators/configurators'
import { ZConfiguratorId } from '@/lib/configurators/schemas'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { formatDateTime } from '@/lib/format-date'
import type { ConfiguratorFile } from '@/lib/generated/prisma/client'
import { blobStore } from '@/lib/storage/blob-store'
import { contentTypeFor } from '@/lib/configurators/content-type'
import { parseEncodedPath } from '@/lib/storage/file-path'
import { changeModel, type ModelChange } from '@/lib/configurators/model-changes'

/** One file of a configurator of the user's, by its path in the configurator. */
export interface ConfiguratorFileOptions extends OwnedConfiguratorOptions {
  path: string
}

/** A save's `If-Match`: the ETags (`"<blob hash>"`) of the versions it may replace, or `*` for any. */
export type IfMatch = string | null

/**
 * The blob hashes an If-Match allows; `*` any existing file, null: no condition. If-Match
 * compares strongly (RFC 9110 13.1.1): a weak tag (`W/"..."`) never matches, so a header of weak
 * tags only is 412.
 */
function allowedVersions(ifMatch: IfMatch): Set<string> | '*' | null {
  if (ifMatch === null) return null
  if (ifMatch.trim() === '*') return '*'
  const tags = [...ifMatch.matchAll(/(W\/)?"([^"]*)"/g)]
  const strong = tags.filter(([, weak]) => !weak).map((match) => match[2]!)
  if (tags.length > 0 && strong.length === 0) {
    throw new AppError(
      'precondition_failed',
      'If-Match holds only weak tags (W/"..."), which never match: send the ETag as GET answered it',
    )
  }
  return new Set(strong)
}

/**
 * 409 unless the file is one of the versions the save was based on: two editors saving the same
 * file, the second loses nothing silently and is told the current version to merge with.
 */
async function checkVersion(
  configuratorId: string,
  path: string,
  ifMatch: IfMatch,
  client: Pick<typeof db, 'configuratorFile'> = db,
): Promise<void> {
  const allowed = allowedVersions(ifMatch)
  if (allowed === null) return
  const current = await client.configuratorFile.findUnique({
    where: { configuratorId_path: { configuratorId, path } },
    select: { blobHash: true },
  })
  if (current && (allowed === '*' || allowed.has(current.blobHash))) return
  if (!current)
    throw new AppError('conflict', `${path} no longer exists: it was deleted after the version this save is based on`)
  throw new AppError(
    'conflict',
    `${path} changed since the version this save is based on: GET it (ETag "${current.blobHash}"), merge, and save again`,
    { etag: `"${current.blobHash}"` },
  )
}

export async function listConfiguratorFiles(options: OwnedConfiguratorOptions) {
  await findOwnedConfigurator(options)
  return db.configuratorFile.findMany({ where: { configuratorId: options.configuratorId }, orderBy: { path: 'asc' } })
}

export async function findConfiguratorFile({ path, ...owned }: ConfiguratorFileOptions) {
  await findOwnedConfigurator(owned)
  const file = await db.configuratorFile.findUnique({
    where: { configuratorId_path: { configuratorId: owned.configuratorId, path } },
  })
  if (!file) throw new AppError('not_found', `File ${path} not found`)
  return file
}

type StoredVersion = Pick<ConfiguratorFile, 'configuratorId' | 'path' | 'blobHash' | 'size' | 'contentType'>

/** Points `path` at a stored blob, replacing whatever the path held before (with If-Match: only the versions it names). */
async function putConfiguratorFile({ configuratorId, path, ...data }: StoredVersion, ifMatch: IfMatch = null) {
  const allowed = allowedVersions(ifMatch)
  await changeModel(changeOf(configuratorId, path), async (tx) => {
    if (allowed !== null) {
      // Compare and set in one statement: a save between the check and this write is not overwritten.
      const where = { configuratorId, path, ...(allowed !== '*' && { blobHash: { in: [...allowed] } }) }
      if ((await tx.configuratorFile.updateMany({ where, data })).count === 0)
        await checkVersion(configuratorId, path, ifMatch, tx)
    } else {
      await tx.configuratorFile.upsert({
        where: { configuratorId_path: { configuratorId, path } },
        create: { configuratorId, path, ...data },
        update: data,
      })
    }
  })
  return { configuratorId, path, ...data }
}

/** A model file's change changes the model; a renderer file's only the configurator. */
function changeOf(configuratorId: string, path: string): ModelChange {
  return { kind: path.startsWith('configurator/') ? 'model' : 'configurator', subject: configuratorId }
}

/** Stores `data` as the file at `path` (written by the server, e.g. a preset file). */
export async function writeConfiguratorFile(configuratorId: string, path: string, data: Uint8Array) {
  const blob = await blobStore.put(new Blob([new Uint8Array(data)]).stream(), env.MAX_UPLOAD_BYTES)
  return putConfiguratorFile({
    configuratorId,
    path,
    blobHash: blob.hash,
    size: blob.size,
    contentType: contentTypeFor(path),
  })
}

export interface UploadConfiguratorFileOptions extends ConfiguratorFileOptions {
  body: ReadableStream<Uint8Array> | null
  /** Content-Length as declared by the client, checked before any byte is read. */
  declaredSize: number
  ifMatch?: IfMatch
}

/** Streams the body into the blob store, then points the path at it (replacing any earlier file, or only the versions If-Match names). */
export async function uploadConfiguratorFile({
  configuratorId,
  userId,
  path,
  body,
  declaredSize,
  ifMatch = null,
}: UploadConfiguratorFileOptions) {
  await findOwnedConfigurator({ configuratorId, userId })
  if (declaredSize > env.MAX_UPLOAD_BYTES) throw tooLarge(env.MAX_UPLOAD_BYTES)
  // Refused before its bytes are read when it is stale already.
  await checkVersion(configuratorId, path, ifMatch)
  const blob = await blobStore.put(body, env.MAX_UPLOAD_BYTES)
  return putConfiguratorFile(
    { configuratorId, path, blobHash: blob.hash, size: blob.size, contentType: contentTypeFor(path) },
    ifMatch,
  )
}

export interface CopyConfiguratorFileOptions extends ConfiguratorFileOptions {
  /** The `service-copy-source` header: `configurators/{configuratorID}/files/{path}`. */
  source: string
  ifMatch?: IfMatch
}

/** Copies by reference: the blob store already holds the content, so only the path is new. */
export async function copyConfiguratorFile({
  configuratorId,
  userId,
  path,
  source,
  ifMatch = null,
}: CopyConfiguratorFileOptions) {
  const match = /^\/?configurators\/([^/]+)\/files\/(.+)$/.exec(source.trim())
  if (!match?.[1] || !match[2]) {
    throw new AppError(
      'bad_request',
      'service-copy-source must be configurators/{configuratorID}/files/{subDir}/{fileName}',
    )
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
  return putConfiguratorFile({ configuratorId, path, blobHash, size, contentType }, ifMatch)
}

/** Removes the path; the blob stays, since other paths may share the same content. */
export async function deleteConfiguratorFile(options: ConfiguratorFileOptions): Promise<void> {
  await findConfiguratorFile(options)
  const { configuratorId, path } = options
  await changeModel(changeOf(configuratorId, path), (tx) =>
    tx.configuratorFile.delete({ where: { configuratorId_path: { configuratorId, path } } }),
  )
}

export function toFileEntry(file: ConfiguratorFile) {
  return { path: file.path, size: file.size, contentType: file.contentType, updatedAt: formatDateTime(file.updatedAt) }
}
