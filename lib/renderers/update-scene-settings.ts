import { AppError } from '@/lib/api/errors'
import { db } from '@/lib/db'
import type { Prisma, RenderSession } from '@/lib/generated/prisma/client'
import { findMissingSceneFiles } from '@/lib/renderers/check-scene-files'
import type { SceneSettings } from '@/lib/renderers/schemas'

export interface UpdateSceneSettingsOptions {
  renderer: RenderSession
  configuratorId: string
  scene: SceneSettings
}

/** Replaces the renderer's scene settings, once every shader and texture they name exists; its render log was about the old ones. */
export async function updateSceneSettings({ renderer, configuratorId, scene }: UpdateSceneSettingsOptions): Promise<SceneSettings> {
  const missing = await findMissingSceneFiles(configuratorId, scene)
  if (missing.length > 0) throw new AppError('unprocessable_entity', missing.join('; '))
  await db.renderSession.update({ where: { id: renderer.id }, data: { scene: scene as Prisma.InputJsonObject, renderLog: '' } })
  return scene
}
