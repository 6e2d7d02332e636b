import { ValidationError } from '@/lib/api/errors'
import { db } from '@/lib/db'
import type { Prisma, RenderSession } from '@/lib/generated/prisma/client'
import { ownHostNames } from '@/lib/render/server/own-host'
import { findMissingSceneFiles, findRefusedExternalTextures } from '@/lib/renderers/check-scene-files'
import type { SceneSettings } from '@/lib/renderers/schemas'

export interface UpdateSceneSettingsOptions {
  renderer: RenderSession
  configuratorId: string
  scene: SceneSettings
  /** The Host header the update came in on: one of this server's names. */
  requestHost: string | null
}

/**
 * Replaces the renderer's scene settings, once every shader and texture they name exists and
 * no external texture points at this server or a private address; its render log was about the old ones.
 */
export async function updateSceneSettings({ renderer, configuratorId, scene, requestHost }: UpdateSceneSettingsOptions): Promise<SceneSettings> {
  const problems = [...findRefusedExternalTextures(scene, ownHostNames(requestHost)), ...(await findMissingSceneFiles(configuratorId, scene))]
  if (problems.length > 0) throw new ValidationError(problems)
  await db.renderSession.update({ where: { id: renderer.id }, data: { scene: scene as Prisma.InputJsonObject, renderLog: '' } })
  return scene
}
