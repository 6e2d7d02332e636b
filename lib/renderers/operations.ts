import { defineOperation } from '@/lib/api/operation'
import { ZImageQuery } from '@/lib/renderers/image-query'
import { ZRendererFileParams, ZRendererFileQuery, ZRendererParams, ZSceneSettings } from '@/lib/renderers/schemas'

const tag = 'Renderers'

export const getScene = defineOperation({
  id: 'getScene',
  method: 'GET',
  path: '/configsessions/{sessionId}/renderers/{rendererId}/scene',
  summary:
    "The renderer's scene settings: its own copy once updated, before that the configurator's renderer/scene.json ({materials: {}} when absent)",
  tag,
  auth: 'session',
  params: ZRendererParams,
  response: ZSceneSettings,
})

export const updateScene = defineOperation({
  id: 'updateScene',
  method: 'PUT',
  path: '/configsessions/{sessionId}/renderers/{rendererId}/scene',
  summary:
    'Replace the scene settings ' +
    'of this renderer and answer ' +
    'them; also GET with a JSON body, as the interface ' +
    'spells it. Shader and non-external texture paths ' +
    'are relative to the renderer directory and must exist',
  tag,
  auth: 'session',
  params: ZRendererParams,
  body: ZSceneSettings,
  response: ZSceneSettings,
})

export const getRendererFile = defineOperation({
  id: 'getRendererFile',
  method: 'GET',
  path: '/configsessions/{sessionId}/renderers/{rendererId}/files/{path}',
  summary:
    "A file of the configurator's renderer directory (shaders, textures) with an ETag (304 on If-None-Match); `key` (the renderingKey) replaces the headers",
  tag,
  auth: 'session-or-key',
  params: ZRendererFileParams,
  query: ZRendererFileQuery,
  produces: 'application/octet-stream',
})

export const getRendererImage = defineOperation({
  id: 'getRendererImage',
  method: 'GET',
  path: '/configsessions/{sessionId}/renderers/{rendererId}/image',
  summary:
    'A server-side image (png, jpeg ' +
    'or webp) of exactly w x h pixels ' +
    'of the scene the viewer shows, for headless renderers (409 ' +
    'for webgl); `key` (the renderingKey) replaces the headers; what ' +
    'could not be drawn is in X-Render-Warnings and the session log',
  tag,
  auth: 'session-or-key',
  params: ZRendererParams,
  query: ZImageQuery,
  produces: 'image/png',
  errors: ['conflict', 'too_many_requests'],
})
