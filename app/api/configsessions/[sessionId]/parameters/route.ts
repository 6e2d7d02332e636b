import { route } from '@/lib/api/route'
import { findSession } from '@/lib/sessions/find-session'
import { resolveSessionState } from '@/lib/sessions/build-session-model'
import * as operations from '@/lib/sessions/operations'
import { toParameterSet, type Values } from '@/lib/sessions/parameter-values'
import { setParameters } from '@/lib/sessions/set-parameters'

// GET /configsessions/{id}/parameters - every parameter with its current value
export const GET = route(operations.getParameters, async ({ params, principal }) => {
  const session = await findSession(params.sessionId, principal)
  const { definitions, values } = await resolveSessionState({ session, storedValues: session.values as Values })
  return toParameterSet(definitions, values)
})

// PUT /configsessions/{id}/parameters - validate, rebuild, store; answers the new full state
export const PUT = route(operations.setParameters, async ({ params, principal, body }) =>
  setParameters(await findSession(params.sessionId, principal), body),
)
