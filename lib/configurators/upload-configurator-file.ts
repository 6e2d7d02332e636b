import { tooLarge } from '@/lib/api/read-body'
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
  /** Content-Length as declared by the client, checked before any byte is read. */
  declaredSize: number
}

/** Streams the body into the blob store, then points the path at it (replacing any earlier file). */
export async function uploadConfiguratorFile({ configuratorId, userId, path, body, declaredSize }: UploadConfiguratorFileOptions) {
  await findOwnedConfigurator(configuratorId, userId)
  if (declaredSize > env.MAX_UPLOAD_BYTES) throw tooLarge(env.MAX_UPLOAD_BYTES)
  const blob = await blobStore.put(body, env.MAX_UPLOAD_BYTES)
  return putConfiguratorFile({ configuratorId, path, blobHash: blob.hash, size: blob.size, contentType: contentTypeFor(path) })
}
