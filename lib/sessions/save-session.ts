import { zipSync, type Zippable } from 'fflate'
import { exportMesh } from '@/lib/cad/mesh/export-mesh'
import type { Principal } from '@/lib/auth/authenticate'
import { db } from '@/lib/db'
import { readExtraSettings } from '@/lib/configurators/configurators'
import { findContentFiles } from '@/lib/releases/release-content'
import { readSceneSettings } from '@/lib/renderers/scene-settings'
import { buildStoredModel, write3mfOf } from '@/lib/sessions/model-builds'
import { composeSessionLog } from '@/lib/sessions/session-model'
import { toParameterSet } from '@/lib/sessions/parameter-values'
import type { LoadedSession } from '@/lib/sessions/sessions'
import { blobStore } from '@/lib/storage/blob-store'

const encode = (value: unknown) =>
  new TextEncoder().encode(typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`)

/**
 * The whole session as a zip: configurator files, parameters.json, scene settings per
 * renderer, the generated models, log.txt and the session files. Posting it to
 * POST /configsessions restores the parameters and files. An end customer gets the designer's
 * files only when the configurator shares them (extraSettings.shareSourceWithCustomers).
 */
export async function saveSession(session: LoadedSession, principal: Principal): Promise<Uint8Array> {
  const isSourceShared =
    principal.kind !== 'anonymous' || readExtraSettings(session.configurator).shareSourceWithCustomers === true
  const [model, configuratorFiles, sessionFiles, renderers] = await Promise.all([
    buildStoredModel(session, 'preview'),
    isSourceShared ? findContentFiles(session.configurator) : [],
    db.sessionFile.findMany({ where: { sessionId: session.id } }),
    db.renderSession.findMany({ where: { sessionId: session.id }, orderBy: { createdAt: 'asc' } }),
  ])
  const { build } = model
  const entries: Zippable = {
    'session.json': encode({
      sessionId: session.id,
      configuratorId: session.configuratorId,
      savedAt: new Date().toISOString(),
    }),
    'parameters.json': encode(toParameterSet(model.definitions, model.values)),
    'log.txt': encode(
      Object.values(composeSessionLog(session, build.log, renderers))
        .filter(Boolean)
        .join('\n'),
    ),
  }
  for (const file of configuratorFiles) entries[file.path] = await blobStore.readBuffer(file.blobHash)
  for (const file of sessionFiles) entries[`files/${file.id}/${file.name}`] = await blobStore.readBuffer(file.blobHash)
  for (const renderer of renderers) {
    const scene = await readSceneSettings(renderer, session.configurator)
    entries[`scene/${renderer.id}.json`] = encode({ ...scene, rendererType: renderer.rendererType })
  }
  if (build.mesh) {
    for (const format of ['stl', 'glb'] as const) entries[`model.${format}`] = exportMesh(build.mesh, format).bytes
    entries['model.3mf'] = await write3mfOf(model.source, model.values, 'preview')
  }
  return zipSync(entries, { level: 6 })
}
