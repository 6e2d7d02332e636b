import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { findSession } from '@/lib/sessions/sessions'
import { prefetchModels } from '@/lib/sessions/prefetch'

// POST /configsessions/{id}/prefetch - build the values the customer may set next, ahead of time
export const POST = route(operations.prefetchModels, async ({ params, principal, body }) =>
  prefetchModels(await findSession(params.sessionId, principal), body.candidates),
)
