import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { getSessionLog } from '@/lib/sessions/session-model'
import { findSession } from '@/lib/sessions/sessions'

// GET /configsessions/{id}/log - CAD output of the last configuration, and what its images could not draw
export const GET = route(operations.getLog, async ({ params, principal }) =>
  getSessionLog(await findSession(params.sessionId, principal)),
)
