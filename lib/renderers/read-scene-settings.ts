import { db } from '@/lib/db'
import type { RenderSession } from '@/lib/generated/prisma/client'
import { findMissingSceneFiles } from '@/lib/renderers/check-scene-files'
import { ZSceneSettings, type SceneSettings } from '@/lib/renderers/schemas'
import { blobStore } from '@/lib/storage/blob-store'

const DEFAULT_SCENE_PATH = 'renderer/scene.json'

/**
 * The configurator's `renderer/scene.json`, read when asked so a designer's later upload
 * reaches every renderer not yet updated. Absent, or not valid scene settings (including a
 * shader it names that is missing), it is `{materials: {}}`.
 */
export async function readDefaultSceneSettings(configuratorId: string): Promise<SceneSettings> {
  const empty: SceneSettings = { materials: {} }
  const file = await db.configuratorFile.findUnique({ where: { configuratorId_path: { configuratorId, path: DEFAULT_SCENE_PATH } } })
  if (!file) return empty
  let json: unknown
  try {
    json = JSON.parse((await blobStore.readBuffer(file.blobHash)).toString('utf8'))
  } catch {
    return empty
  }
  const result = ZSceneSettings.safeParse(json)
  if (!result.success || (await findMissingSceneFiles(configuratorId, result.data)).length > 0) return empty
  return result.data
}

/** The renderer's own copy once it was updated, the configurator's default before. */
export async function readSceneSettings(renderer: RenderSession, configuratorId: string): Promise<SceneSettings> {
  // Stored copies were validated by updateSceneSettings.
  return renderer.scene !== null ? (renderer.scene as SceneSettings) : readDefaultSceneSettings(configuratorId)
}
