import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { findSession, getSessionDetails } from '@/lib/sessions/sessions'

// GET /configsessions/{id} - details with fresh keys
export const GET = route(operations.getSession, async ({ params, principal }) =>
  getSessionDetails({ sessionId: (await findSession(params.sessionId, principal)).id }),
)
