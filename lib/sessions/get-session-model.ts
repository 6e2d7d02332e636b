import { AppError } from '@/lib/api/errors'
import { exportMesh, type MeshFormat } from '@/lib/cad/mesh/export-mesh'
import { buildSessionModel, type Quality, type SessionModel } from '@/lib/sessions/build-session-model'
import type { LoadedSession } from '@/lib/sessions/find-session'
import type { Values } from '@/lib/sessions/parameter-values'

export function buildStoredState(session: LoadedSession, quality: Quality): Promise<SessionModel> {
  return buildSessionModel({ session, storedValues: session.values as Values }, quality)
}

/** The model of the session's current state as a file; 409 when it did not build. */
export async function getSessionModel(session: LoadedSession, quality: Quality, format: MeshFormat) {
  const { build } = await buildStoredState(session, quality)
  if (!build.mesh) {
    throw new AppError('conflict', `The model did not build; GET /api/configsessions/${session.id}/log says why`)
  }
  return { ...exportMesh(build.mesh, format), source: build.source }
}
