import { route } from '@/lib/api/route'
import { db } from '@/lib/db'
import { findSession } from '@/lib/sessions/find-session'
import * as operations from '@/lib/sessions/operations'
import { toSessionDto } from '@/lib/sessions/to-session-dto'

// GET /configsessions/{id} - details with fresh keys
export const GET = route(operations.getSession, async ({ params, principal }) => {
  const session = await findSession(params.sessionId, principal)
  const renderers = await db.renderSession.findMany({ where: { sessionId: session.id }, orderBy: { createdAt: 'asc' } })
  return toSessionDto(session.id, renderers)
})
