import { route } from '@/lib/api/route'
import { UNTRUSTED_CONTENT_HEADERS } from '@/lib/api/untrusted-content'
import { copyConfiguratorFile, deleteConfiguratorFile, findConfiguratorFile, uploadConfiguratorFile } from '@/lib/configurators/configurator-files'
import * as operations from '@/lib/configurators/operations'
import { blobStore } from '@/lib/storage/blob-store'
import { parseConfiguratorFilePath } from '@/lib/storage/file-path'

// The path is taken from the raw URL, not Next's decoded params, so that an encoded
// separator (%2F, %5C) or dot segment (%2e%2e) is seen and refused rather than resolved.
function filePath(request: Request): string {
  const { pathname } = new URL(request.url)
  return parseConfiguratorFilePath(pathname.slice(pathname.indexOf('/files/') + '/files/'.length)).path
}

// PUT /configurators/{id}/files/{subDir}/{fileName} - upload the raw body or copy service-copy-source
export const PUT = route(operations.uploadConfiguratorFile, async ({ request, user, params, body }) => {
  const path = filePath(request)
  const source = request.headers.get('service-copy-source')
  const options = { configuratorId: params.configuratorId, userId: user.id, path }
  if (source !== null) {
    await body?.cancel()
    await copyConfiguratorFile({ ...options, source })
  } else {
    await uploadConfiguratorFile({ ...options, body, declaredSize: Number(request.headers.get('content-length') ?? 0) })
  }
  return new Response(null, { status: 202 })
})

// GET /configurators/{id}/files/{path} - one file's content
export const GET = route(operations.getConfiguratorFile, async ({ request, user, params }) => {
  const file = await findConfiguratorFile({ configuratorId: params.configuratorId, userId: user.id, path: filePath(request) })
  return new Response(blobStore.read(file.blobHash), {
    headers: {
      'content-type': file.contentType,
      'content-length': String(file.size),
      etag: `"${file.blobHash}"`,
      ...UNTRUSTED_CONTENT_HEADERS,
    },
  })
})

// DELETE /configurators/{id}/files/{path}
export const DELETE = route(operations.deleteConfiguratorFile, ({ request, user, params }) =>
  deleteConfiguratorFile({ configuratorId: params.configuratorId, userId: user.id, path: filePath(request) }),
)
