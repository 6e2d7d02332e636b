import { findOwnedConfigurator } from '@/lib/configurators/find-owned-configurator'
import { putConfiguratorFile } from '@/lib/configurators/put-configurator-file'
import { env } from '@/lib/env'
import { blobStore } from '@/lib/storage/blob-store'
import { contentTypeFor } from '@/lib/storage/content-type'

export interface UploadConfiguratorFileOptions {
  configuratorId: string
  userId: string
  path: string
  body: ReadableStream<Uint8Array> | null
}

/** Streams the body into the blob store, then points the path at it (replacing any earlier file). */
export async function uploadConfiguratorFile({ configuratorId, userId, path, body }: UploadConfiguratorFileOptions) {
  await findOwnedConfigurator(configuratorId, userId)
  const blob = await blobStore.put(body, env.MAX_UPLOAD_BYTES)
  return putConfiguratorFile({ configuratorId, path, blobHash: blob.hash, size: blob.size, contentType: contentTypeFor(path) })
}
