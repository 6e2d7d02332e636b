'use client'

import { useMemo } from 'react'
import type { ConfigSession } from '@/components/configurator/use-config-session'
import { useApiQuery } from '@/components/use-api-query'
import type { ApiCredentials } from '@/lib/client/api-client'
import { operationPath } from '@/lib/endpoints/client'
import type { RendererFiles } from '@/lib/render/load-scene-files'
import type { SceneSettings } from '@/lib/renderers/schemas'

const NO_MATERIALS: SceneSettings = { materials: {} }

/** The session's webgl renderer: its scene settings and where the viewer loads its files (with the renderingKey). */
export function useRendererScene(session: ConfigSession | null, credentials: ApiCredentials | undefined) {
  const rendererId = session?.renderSessions.find((renderer) => renderer.rendererType === 'webgl')?.sessionId ?? null
  const scene = useApiQuery(
    'getScene',
    { params: { sessionId: session?.id ?? '', rendererId: rendererId ?? '' }, credentials },
    {
      enabled: session !== null && rendererId !== null,
      staleTime: Infinity,
    },
  )
  // The prefix is getRendererFile's path with an empty file name: `/api/configsessions/…/renderers/…/files/`.
  const files = useMemo<RendererFiles | null>(
    () =>
      session && rendererId
        ? {
            prefix: `/api${operationPath('getRendererFile', { params: { sessionId: session.id, rendererId, path: [''] } })}`,
            query: `?key=${encodeURIComponent(session.renderingKey)}`,
          }
        : null,
    [session, rendererId],
  )
  const settings = rendererId === null ? NO_MATERIALS : (scene.data ?? null)
  return { rendererId, settings, files, error: scene.error }
}

/** The session's model as the viewer loads it: same-origin, authorised by the modelKey. */
export function modelUrl(
  session: ConfigSession,
  type: string,
  quality: 'preview' | 'final' = 'preview',
  filename?: string,
): string {
  const query = { type, key: session.modelKey, ...(filename && { filename }) }
  return `/api${operationPath(quality === 'final' ? 'getFinalizedModel' : 'getModel', { params: { sessionId: session.id }, query })}`
}
