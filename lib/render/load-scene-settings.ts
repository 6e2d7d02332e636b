import type { RenderSession } from '@/lib/generated/prisma/client'
import { readSceneSettings } from '@/lib/renderers/read-scene-settings'
import type { SceneSettings } from '@/lib/render/scene-settings'

/** The renderer's effective scene settings, as the scene endpoint answers them (lib/renderers). */
export function loadSceneSettings(renderer: RenderSession, configuratorId: string): Promise<SceneSettings> {
  return readSceneSettings(renderer, configuratorId)
}
