import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/renderers/operations'
import { renderSessionImage } from '@/lib/render/server/render-session-image'

// GET /configsessions/{id}/renderers/{rid}/image - a server-side image of a headless renderer's scene
export const GET = route(operations.getRendererImage, ({ request, params, principal, query }) =>
  renderSessionImage({ sessionId: params.sessionId, rendererId: params.rendererId, principal, query, request }),
)
