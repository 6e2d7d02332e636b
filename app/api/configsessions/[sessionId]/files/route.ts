import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { addSessionFile, listSessionFiles, toSessionFileEntry } from '@/lib/sessions/session-files'
import { findSession } from '@/lib/sessions/sessions'

// GET /configsessions/{id}/files - the session's files
export const GET = route(operations.listSessionFiles, async ({ params, principal }) =>
  listSessionFiles({ sessionId: (await findSession(params.sessionId, principal)).id }),
)

// POST /configsessions/{id}/files?name= - add one (raw body)
export const POST = route(operations.addSessionFile, async ({ request, params, principal, query, body }) => {
  const session = await findSession(params.sessionId, principal)
  const declaredSize = Number(request.headers.get('content-length') ?? 0)
  return toSessionFileEntry(
    await addSessionFile({
      sessionId: session.id,
      configurator: session.configurator,
      name: query.name,
      body,
      declaredSize,
    }),
  )
})
