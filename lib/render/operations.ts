import { defineOperation } from '@/lib/api/operation'
import { ZImageQuery, ZRendererParams } from '@/lib/render/schemas'

export const getRendererImage = defineOperation({
  id: 'getRendererImage',
  method: 'GET',
  path: '/configsessions/{sessionId}/renderers/{rendererId}/image',
  summary:
    'A server-side image (png, jpeg or webp) of exactly w x h pixels of the scene the viewer shows, for headless renderers (409 for webgl); `key` (the renderingKey) replaces the headers; X-Render-Warnings lists what could not be drawn',
  tag: 'Renderers',
  auth: 'session-or-key',
  params: ZRendererParams,
  query: ZImageQuery,
  produces: 'image/png',
})
