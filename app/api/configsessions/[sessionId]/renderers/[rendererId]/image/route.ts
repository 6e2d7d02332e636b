import { apiPath } from '@/lib/endpoints/client'
import { imageResponse } from '@/lib/endpoints/responses'
import { route } from '@/lib/endpoints/route'
import { renderSessionImage } from '@/lib/render/server/render-session-image'
import * as operations from '@/lib/renderers/operations'

// GET /configsessions/{id}/renderers/{rid}/image - a server-side image of a headless renderer's scene
export const GET = route(operations.getRendererImage, async ({ request, params, principal, query }) => {
  const { sessionId, rendererId } = params
  const image = await renderSessionImage({
    sessionId,
    rendererId,
    principal,
    query,
    request,
    logPath: apiPath('getLog', { params: { sessionId } }),
    filesPrefix: apiPath('getRendererFile', { params: { sessionId, rendererId, path: [''] } }),
  })
  return imageResponse(image, query.type)
})
