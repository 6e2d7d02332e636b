import { route } from '@/lib/endpoints/route'
import { storedFileResponse } from '@/lib/storage/untrusted-content'
import {
  copyConfiguratorFile,
  deleteConfiguratorFile,
  findConfiguratorFile,
  uploadConfiguratorFile,
} from '@/lib/configurators/configurator-files'
import * as operations from '@/lib/configurators/operations'
import { parseConfiguratorFilePath, rawPathAfter } from '@/lib/storage/file-path'

function filePath(request: Request): string {
  return parseConfiguratorFilePath(rawPathAfter(request, '/files/')).path
}

// PUT /configurators/{id}/files/{subDir}/{fileName} - upload the raw body or copy service-copy-source;
// with If-Match, only over the version it names (409 otherwise). The new version's ETag is answered.
export const PUT = route(
  operations.uploadConfiguratorFile,
  async ({ request, user, params, body, responseHeaders }) => {
    const path = filePath(request)
    const source = request.headers.get('service-copy-source')
    const options = {
      configuratorId: params.configuratorId,
      userId: user.id,
      path,
      ifMatch: request.headers.get('if-match'),
    }
    let stored: { blobHash: string }
    if (source !== null) {
      await body?.cancel()
      stored = await copyConfiguratorFile({ ...options, source })
    } else {
      stored = await uploadConfiguratorFile({
        ...options,
        body,
        declaredSize: Number(request.headers.get('content-length') ?? 0),
      })
    }
    responseHeaders.set('etag', `"${stored.blobHash}"`)
  },
)

// GET /configurators/{id}/files/{path} - one file's content
export const GET = route(operations.getConfiguratorFile, async ({ request, user, params }) => {
  const file = await findConfiguratorFile({
    configuratorId: params.configuratorId,
    userId: user.id,
    path: filePath(request),
  })
  return storedFileResponse(file, { etag: `"${file.blobHash}"` })
})

// DELETE /configurators/{id}/files/{path}
export const DELETE = route(operations.deleteConfiguratorFile, async ({ request, user, params }) => {
  await deleteConfiguratorFile({ configuratorId: params.configuratorId, userId: user.id, path: filePath(request) })
})
