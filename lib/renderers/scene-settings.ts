import type { FieldError } from '@/lib/api/errors'
import { db } from '@/lib/db'
import type { RenderSession } from '@/lib/generated/prisma/client'
import { parseColumn } from '@/lib/json-columns'
import { ZSceneSettings, type SceneSettings } from '@/lib/renderers/schemas'
import { blobStore } from '@/lib/storage/blob-store'
import { type ConfiguratorContent, findContentFile, findContentFiles } from '@/lib/releases/release-content'

// Reading a renderer's scene settings (the model endpoints' AR files read them too, so this
// module stays clear of the checks only an update needs: renderers.ts).

export const RENDERER_ROOT = 'renderer/'
const DEFAULT_SCENE_PATH = `${RENDERER_ROOT}scene.json`
/** A renderer's own scene settings (`RenderSession.scene`): null until it was updated. */
const ZStoredScene = ZSceneSettings.nullable()

/**
 * The configurator's `renderer/scene.json`, read when asked so a designer's later upload
 * reaches every renderer not yet updated. Absent, or not valid scene settings (including a
 * shader it names that is missing), it is `{materials: {}}`.
 */
async function readDefaultSceneSettings(content: ConfiguratorContent): Promise<SceneSettings> {
  const empty: SceneSettings = { materials: {} }
  const file = await findContentFile(content, DEFAULT_SCENE_PATH)
  if (!file) return empty
  let json: unknown
  try {
    json = JSON.parse((await blobStore.readBuffer(file.blobHash)).toString('utf8'))
  } catch {
    return empty
  }
  const result = ZSceneSettings.safeParse(json)
  if (!result.success || (await findMissingSceneFiles(content, result.data)).length > 0) return empty
  return result.data
}

/** The renderer's own copy once it was updated, the configurator's default before. */
export async function readSceneSettings(renderer: RenderSession, content: ConfiguratorContent): Promise<SceneSettings> {
  const stored = parseColumn(ZStoredScene, renderer.scene, { table: 'RenderSession', id: renderer.id, column: 'scene' })
  return stored ?? readDefaultSceneSettings(content)
}

/** The scene of the session's renderer of `rendererType`, else of its first; no materials when it has no renderer. */
export async function sessionScene(
  session: { id: string; configurator: ConfiguratorContent },
  rendererType: string,
): Promise<SceneSettings> {
  const renderers = await db.renderSession.findMany({ where: { sessionId: session.id }, orderBy: { createdAt: 'asc' } })
  const renderer = renderers.find((candidate) => candidate.rendererType === rendererType) ?? renderers[0]
  return renderer ? readSceneSettings(renderer, session.configurator) : { materials: {} }
}

/** Every file a scene loads from the renderer directory, by the field that names it. */
function referencedFiles(scene: SceneSettings): { field: FieldError['path']; path: string }[] {
  return Object.entries(scene.materials).flatMap(([index, material]) => [
    { field: ['materials', index, 'vertexShader'], path: material.vertexShader },
    { field: ['materials', index, 'fragmentShader'], path: material.fragmentShader },
    ...Object.entries(material.uniforms ?? {}).flatMap(([name, uniform]) =>
      uniform.type === 'sampler2d' && !uniform.value.external
        ? [{ field: ['materials', index, 'uniforms', name, 'value', 'url'], path: uniform.value.url }]
        : [],
    ),
  ])
}

/** One field error per shader or texture the configurator does not have; empty when all exist. */
export async function findMissingSceneFiles(content: ConfiguratorContent, scene: SceneSettings): Promise<FieldError[]> {
  const references = referencedFiles(scene)
  if (references.length === 0) return []
  const existing = await findContentFiles(content, {
    in: [...new Set(references.map((reference) => RENDERER_ROOT + reference.path))],
  })
  const paths = new Set(existing.map((file) => file.path))
  return references
    .filter((reference) => !paths.has(RENDERER_ROOT + reference.path))
    .map((reference) => ({
      path: reference.field,
      message: `${RENDERER_ROOT}${reference.path} is not among the configurator's files`,
    }))
}
