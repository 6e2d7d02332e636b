import { AppError, ValidationError, type FieldError } from '@/lib/api/errors'
import { db } from '@/lib/db'
import type { RenderSession } from '@/lib/generated/prisma/client'
import { toJsonInput } from '@/lib/json-columns'
import { externalUrlProblem, ownHostNames } from '@/lib/outbound/own-host'
import { findMissingSceneFiles, RENDERER_ROOT } from '@/lib/renderers/scene-settings'
import { ZSceneSettings, type SceneSettings } from '@/lib/renderers/schemas'
import { type ConfiguratorContent, findContentFile } from '@/lib/releases/release-content'

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
