import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { getParameters, setParameters } from '@/lib/sessions/session-model'
import { findSession } from '@/lib/sessions/sessions'

// GET /configsessions/{id}/parameters - every parameter with its current value
export const GET = route(operations.getParameters, async ({ params, principal }) =>
  getParameters(await findSession(params.sessionId, principal)),
)

// PUT /configsessions/{id}/parameters - validate, store, start the build; answers the new full state
export const PUT = route(operations.setParameters, async ({ params, principal, body }) =>
  setParameters(await findSession(params.sessionId, principal), body),
)
