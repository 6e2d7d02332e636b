import type { EngineLog } from '@/lib/cad/engine'
import { db } from '@/lib/db'
import type { RenderSession } from '@/lib/generated/prisma/client'
import type { LoadedSession } from '@/lib/sessions/sessions'
import { buildStoredModel } from '@/lib/sessions/session-model'

/**
 * The log of the last configuration: the CAD run's output, then, in `error`, what each
 * renderer's last image could not draw as asked, each line naming its renderer.
 */
export function composeSessionLog(build: EngineLog, renderers: Pick<RenderSession, 'id' | 'renderLog'>[]): EngineLog {
  const rendererLines = renderers.flatMap(({ id, renderLog }) => (renderLog ? renderLog.split('\n').map((line) => `renderer ${id}: ${line}`) : []))
  return { message: build.message, error: [build.error, ...rendererLines].filter(Boolean).join('\n') }
}

export async function getSessionLog(session: LoadedSession) {
  const [{ build }, renderers] = await Promise.all([
    buildStoredModel(session, 'preview'),
    db.renderSession.findMany({ where: { sessionId: session.id }, orderBy: { createdAt: 'asc' } }),
  ])
  return { ...composeSessionLog(build.log, renderers), timestamp: session.configuredAt.getTime() }
}
