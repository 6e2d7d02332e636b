import { AppError } from '@/lib/api/errors'
import { db } from '@/lib/db'

/** A renderer of this session; another session's renderer is as unknown as a made-up id. */
export async function findRenderer(sessionId: string, rendererId: string) {
  const renderer = await db.renderSession.findFirst({ where: { id: rendererId, sessionId } })
  if (!renderer) throw new AppError('not_found', `Renderer ${rendererId} not found in this session`)
  return renderer
}
