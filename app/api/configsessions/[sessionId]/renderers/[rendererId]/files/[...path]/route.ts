import { isNotModified } from '@/lib/api/etag'
import { route } from '@/lib/api/route'
import { UNTRUSTED_CONTENT_HEADERS } from '@/lib/api/untrusted-content'
import { findRendererFile } from '@/lib/renderers/find-renderer-file'
import * as operations from '@/lib/renderers/operations'
import { findSessionByKeyOrPrincipal } from '@/lib/sessions/sessions'
import { blobStore } from '@/lib/storage/blob-store'
import { parseEncodedPath } from '@/lib/storage/file-path'

// The path is taken from the raw URL, not Next's decoded params, so that an encoded
// separator (%2F, %5C) or dot segment (%2e%2e) is seen and refused rather than resolved.
function filePath(request: Request): string {
  const { pathname } = new URL(request.url)
  return parseEncodedPath(pathname.slice(pathname.indexOf('/files/') + '/files/'.length)).join('/')
}

// GET /configsessions/{id}/renderers/{rid}/files/{path} - a shader or texture of the renderer directory
export const GET = route(operations.getRendererFile, async ({ request, params, principal, query }) => {
  const path = filePath(request)
  const session = await findSessionByKeyOrPrincipal(params.sessionId, principal, query.key, 'rendering')
  const file = await findRendererFile({ session, rendererId: params.rendererId, path })
  // Private: the URL may carry a renderingKey, and the file belongs to one configurator's customers.
  const caching = { etag: `"${file.blobHash}"`, 'cache-control': 'private, max-age=300' }
  if (isNotModified(request, caching.etag)) return new Response(null, { status: 304, headers: caching })
  return new Response(blobStore.read(file.blobHash), {
    headers: {
      ...caching,
      'content-type': file.contentType,
      'content-length': String(file.size),
      ...UNTRUSTED_CONTENT_HEADERS,
    },
  })
})
