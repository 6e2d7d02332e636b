import { route } from '@/lib/api/route'
import { findSession } from '@/lib/sessions/find-session'
import { buildStoredState } from '@/lib/sessions/get-session-model'
import * as operations from '@/lib/sessions/operations'

// GET /configsessions/{id}/log - CAD output of the last configuration
export const GET = route(operations.getLog, async ({ params, principal }) => {
  const session = await findSession(params.sessionId, principal)
  const { build } = await buildStoredState(session, 'preview')
  return { ...build.log, timestamp: session.configuredAt.getTime() }
})
