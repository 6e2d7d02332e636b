'use client'

import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { ConfigSession } from '@/components/configurator/use-config-session'
import { apiJson, type ApiCredentials } from '@/lib/client/api-client'
import type { RendererFiles } from '@/lib/render/load-scene-files'
import type { SceneSettings, ZSceneSettings } from '@/lib/renderers/schemas'

const NO_MATERIALS: SceneSettings = { materials: {} }

/** The session's webgl renderer: its scene settings and where the viewer loads its files (with the renderingKey). */
export function useRendererScene(session: ConfigSession | null, credentials: ApiCredentials | undefined) {
  const rendererId = session?.renderSessions.find((renderer) => renderer.rendererType === 'webgl')?.sessionId ?? null
  const scene = useQuery({
    queryKey: ['scene', session?.id, rendererId],
    queryFn: () => apiJson<typeof ZSceneSettings>(`/configsessions/${session?.id}/renderers/${rendererId}/scene`, { credentials }),
    enabled: session !== null && rendererId !== null,
    staleTime: Infinity,
  })
  const files = useMemo<RendererFiles | null>(
    () =>
      session && rendererId
        ? { prefix: `/api/configsessions/${session.id}/renderers/${rendererId}/files/`, query: `?key=${encodeURIComponent(session.renderingKey)}` }
        : null,
    [session, rendererId],
  )
  const settings = rendererId === null ? NO_MATERIALS : (scene.data ?? null)
  return { rendererId, settings, files, error: scene.error }
}

/** The session's model as the viewer loads it: same-origin, authorised by the modelKey. */
export function modelUrl(session: ConfigSession, type: string, quality: 'preview' | 'final' = 'preview', filename?: string): string {
  const query = new URLSearchParams({ type, key: session.modelKey, ...(filename && { filename }) })
  return `/api/configsessions/${session.id}/${quality === 'final' ? 'finalizedmodel' : 'model'}?${query}`
}
