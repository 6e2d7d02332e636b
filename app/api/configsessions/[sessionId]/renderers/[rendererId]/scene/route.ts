import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/renderers/operations'
import { findRenderer, updateSceneSettings } from '@/lib/renderers/renderers'
import { readSceneSettings } from '@/lib/renderers/scene-settings'
import { findSession } from '@/lib/sessions/sessions'

// GET /configsessions/{id}/renderers/{rid}/scene - this renderer's scene settings
export const GET = route(operations.getScene, async ({ params, principal }) => {
  const session = await findSession(params.sessionId, principal)
  return readSceneSettings(await findRenderer(session.id, params.rendererId), session.configurator)
})

// PUT /configsessions/{id}/renderers/{rid}/scene - replace them (server.ts routes a GET with a body here)
export const PUT = route(operations.updateScene, async ({ request, params, principal, body }) => {
  const session = await findSession(params.sessionId, principal)
  const renderer = await findRenderer(session.id, params.rendererId)
  return updateSceneSettings({
    renderer,
    content: session.configurator,
    scene: body,
    requestHost: request.headers.get('host'),
  })
})
