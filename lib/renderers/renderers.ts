import { AppError, ValidationError, type FieldError } from '@/lib/api/errors'
import { db } from '@/lib/db'
import type { RenderSession } from '@/lib/generated/prisma/client'
import { parseColumn, toJsonInput } from '@/lib/json-columns'
import { externalUrlProblem, ownHostNames } from '@/lib/outbound/own-host'
import { ZSceneSettings, type SceneSettings } from '@/lib/renderers/schemas'
import { blobStore } from '@/lib/storage/blob-store'
import { type ConfiguratorContent, findContentFile, findContentFiles } from '@/lib/releases/release-content'

const RENDERER_ROOT = 'renderer/'
const DEFAULT_SCENE_PATH = `${RENDERER_ROOT}scene.json`
/** A renderer's own scene settings (`RenderSession.scene`): null until it was updated. */
const ZStoredScene = ZSceneSettings.nullable()

/** A renderer of this session; another session's renderer is as unknown as a made-up id. */
export async function findRenderer(sessionId: string, rendererId: string) {
  const renderer = await db.renderSession.findFirst({ where: { id: rendererId, sessionId } })
  if (!renderer) throw new AppError('not_found', `Renderer ${rendererId} not found in this session`)
  return renderer
}

export interface FindRendererFileOptions {
  session: { id: string; configurator: ConfiguratorContent }
  rendererId: string
  /** Checked segments relative to the renderer directory. */
  path: string
}

/** A file of the configurator's `renderer` directory, as one of the session's renderers loads it. */
export async function findRendererFile({ session, rendererId, path }: FindRendererFileOptions) {
  await findRenderer(session.id, rendererId)
  const fullPath = RENDERER_ROOT + path
  const file = await findContentFile(session.configurator, fullPath)
  if (!file) throw new AppError('not_found', `File ${fullPath} not found`)
  return file
}

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

export interface UpdateSceneSettingsOptions {
  renderer: RenderSession
  /** The files of the session's release (or draft) the scene may name. */
  content: ConfiguratorContent
  scene: SceneSettings
  /** The Host header the update came in on: one of this server's names. */
  requestHost: string | null
}

/**
 * Replaces the renderer's scene settings, once every shader and texture they name exists and
 * no external texture points at this server or a private address; its render log was about the old ones.
 */
export async function updateSceneSettings({
  renderer,
  content,
  scene,
  requestHost,
}: UpdateSceneSettingsOptions): Promise<SceneSettings> {
  const problems = [
    ...findRefusedExternalTextures(scene, ownHostNames(requestHost)),
    ...(await findMissingSceneFiles(content, scene)),
  ]
  if (problems.length > 0) throw new ValidationError(problems)
  await db.renderSession.update({
    where: { id: renderer.id },
    data: { scene: toJsonInput(ZSceneSettings, scene), renderLog: '' },
  })
  return scene
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
async function findMissingSceneFiles(content: ConfiguratorContent, scene: SceneSettings): Promise<FieldError[]> {
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

/** One field error per external texture whose host a render may not reach (this server, private addresses). */
function findRefusedExternalTextures(scene: SceneSettings, ownNames: string[]): FieldError[] {
  return Object.entries(scene.materials).flatMap(([index, material]) =>
    Object.entries(material.uniforms ?? {}).flatMap(([name, uniform]) => {
      const problem =
        uniform.type === 'sampler2d' && uniform.value.external ? externalUrlProblem(uniform.value.url, ownNames) : null
      return problem
        ? [
            {
              path: ['materials', index, 'uniforms', name, 'value', 'url'],
              message: `${problem}; external textures must be on public addresses of other servers`,
            },
          ]
        : []
    }),
  )
}
