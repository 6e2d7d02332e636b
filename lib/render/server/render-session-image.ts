import 'server-only'
import { AppError } from '@/lib/api/errors'
import type { Principal } from '@/lib/auth/authenticate'
import { db } from '@/lib/db'
import type { Vec3 } from '@/lib/render/camera'
import { isRendererRequest, type RenderedImage, renderImage } from '@/lib/render/server/image-renderer'
import type { ImageQuery } from '@/lib/renderers/image-query'
import { findRenderer } from '@/lib/renderers/renderers'
import { readSceneSettings } from '@/lib/renderers/scene-settings'
import type { SceneSettings } from '@/lib/renderers/schemas'
import { signSessionKey } from '@/lib/sessions/session-keys'
import { storedModelFile } from '@/lib/sessions/session-model'
import { findSessionByKeyOrPrincipal } from '@/lib/sessions/sessions'

export interface RenderSessionImageOptions {
  sessionId: string
  rendererId: string
  principal: Principal | null
  query: ImageQuery
  request: Request
  /** Where the session's log is (named when its model did not build), and where the renderer's files are: `filesPrefix` + path. */
  logPath: string
  filesPrefix: string
}

/** The image of a headless renderer's scene of the session's current model (preview quality). */
export async function renderSessionImage({
  sessionId,
  rendererId,
  principal,
  query,
  request,
  logPath,
  filesPrefix,
}: RenderSessionImageOptions): Promise<RenderedImage> {
  // A scene's texture that leads back here (past the checks of its URL) would render for ever.
  if (isRendererRequest(request.headers)) throw new AppError('forbidden', 'A render cannot request another image')
  const session = await findSessionByKeyOrPrincipal(sessionId, principal, query.key, 'rendering')
  const renderer = await findRenderer(session.id, rendererId)
  if (renderer.rendererType !== 'headless') {
    throw new AppError(
      'conflict',
      `Renderer ${rendererId} is a ${renderer.rendererType} renderer: it draws in the customer's browser and has no server-side image. ` +
        "Images come from a headless renderer (the configurator's rendererType 'headless', or 'headless' in extraSettings.renderers)",
    )
  }
  // The page is handed the model; it fetches the renderer's files like a viewer would, with a key of its own.
  const [renderingKey, model] = await Promise.all([
    signSessionKey(session.id, 'rendering'),
    storedModelFile(session, 'preview', 'glb', logPath),
  ])
  const image = await renderScene({
    glb: model.bytes,
    files: { prefix: filesPrefix, query: `?key=${encodeURIComponent(renderingKey)}` },
    settings: await readSceneSettings(renderer, session.configurator),
    query,
    signal: request.signal,
  })
  // What could not be drawn goes to the session log too, where a designer looks for it.
  const renderLog = image.warnings.join('\n')
  if (renderLog !== renderer.renderLog)
    await db.renderSession.update({ where: { id: renderer.id }, data: { renderLog } })
  return image
}

export interface SceneImageOptions {
  /** The model as GLB. */
  glb: Uint8Array
  /** Where the page loads the scene's shaders and textures: prefix + path + query. */
  files: { prefix: string; query: string }
  settings: SceneSettings
  query: ImageQuery
  signal: AbortSignal
}

/** The image of a scene drawn by the headless renderer, with what it could not draw. */
export function renderScene({ glb, files, settings, query, signal }: SceneImageOptions): Promise<RenderedImage> {
  const args = {
    model: Buffer.from(glb).toString('base64'),
    files,
    settings,
    width: query.w,
    height: query.h,
    type: query.type,
    camera: {
      position: vector(query.px, query.py, query.pz),
      view: vector(query.vx, query.vy, query.vz),
      top: vector(query.tx, query.ty, query.tz),
      right: vector(query.rx, query.ry, query.rz),
      angle: query.a,
    },
    lightScale: query.s,
  }
  return renderImage(args, signal)
}

function vector(x: number | undefined, y: number | undefined, z: number | undefined): Vec3 | undefined {
  return x === undefined || y === undefined || z === undefined ? undefined : [x, y, z]
}
