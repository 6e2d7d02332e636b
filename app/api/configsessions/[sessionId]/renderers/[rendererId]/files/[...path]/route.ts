import { isNotModified } from '@/lib/api/etag'
import { route } from '@/lib/endpoints/route'
import { storedFileResponse } from '@/lib/storage/untrusted-content'
import * as operations from '@/lib/renderers/operations'
import { findRendererFile } from '@/lib/renderers/renderers'
import { findSessionByKeyOrPrincipal } from '@/lib/sessions/sessions'
import { rawPathAfter } from '@/lib/storage/file-path'

// GET /configsessions/{id}/renderers/{rid}/files/{path} - a shader or texture of the renderer directory
export const GET = route(operations.getRendererFile, async ({ request, params, principal, query }) => {
  const path = rawPathAfter(request, '/files/').join('/')
  const session = await findSessionByKeyOrPrincipal(params.sessionId, principal, query.key, 'rendering')
  const file = await findRendererFile({ session, rendererId: params.rendererId, path })
  // Private: the URL may carry a renderingKey, and the file belongs to one configurator's customers.
  const caching = { etag: `"${file.blobHash}"`, 'cache-control': 'private, max-age=300' }
  if (isNotModified(request, caching.etag)) return new Response(null, { status: 304, headers: caching })
  return storedFileResponse(file, caching)
})
