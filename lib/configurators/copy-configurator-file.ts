import { AppError } from '@/lib/api/errors'
import { findOwnedConfigurator } from '@/lib/configurators/find-owned-configurator'
import { ZConfiguratorId } from '@/lib/configurators/schemas'
import { putConfiguratorFile } from '@/lib/configurators/put-configurator-file'
import { db } from '@/lib/db'
import { parseEncodedPath } from '@/lib/storage/file-path'

export interface CopyConfiguratorFileOptions {
  configuratorId: string
  userId: string
  path: string
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
  await findOwnedConfigurator(configuratorId, userId)
  const original = ZConfiguratorId.safeParse(sourceId).success
    ? await db.configuratorFile.findFirst({
        where: { configuratorId: sourceId, path: sourcePath, configurator: { userId } },
      })
    : null
  if (!original) throw new AppError('not_found', `Copy source ${source} not found`)
  const { blobHash, size, contentType } = original
  return putConfiguratorFile({ configuratorId, path, blobHash, size, contentType })
}
