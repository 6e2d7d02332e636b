import { route } from '@/lib/api/route'
import { db } from '@/lib/db'
import { addSessionFile, toSessionFileEntry } from '@/lib/sessions/add-session-file'
import { findSession } from '@/lib/sessions/find-session'
import * as operations from '@/lib/sessions/operations'

// GET /configsessions/{id}/files - the session's files
export const GET = route(operations.listSessionFiles, async ({ params, principal }) => {
  const session = await findSession(params.sessionId, principal)
  const files = await db.sessionFile.findMany({ where: { sessionId: session.id }, orderBy: { createdAt: 'asc' } })
  return files.map(toSessionFileEntry)
})

// POST /configsessions/{id}/files?name= - add one (raw body)
export const POST = route(operations.addSessionFile, async ({ request, params, principal, query, body }) => {
  const session = await findSession(params.sessionId, principal)
  const declaredSize = Number(request.headers.get('content-length') ?? 0)
  return toSessionFileEntry(await addSessionFile({ sessionId: session.id, configuratorId: session.configuratorId, name: query.name, body, declaredSize }))
})
