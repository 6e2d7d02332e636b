import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { getRefusedValues } from '@/lib/sessions/session-model'
import { findSession } from '@/lib/sessions/sessions'

// GET /configsessions/{id}/refused-values - where the model refuses values (an addition)
export const GET = route(operations.getRefusedValues, async ({ params, principal }) =>
  getRefusedValues(await findSession(params.sessionId, principal)),
)
