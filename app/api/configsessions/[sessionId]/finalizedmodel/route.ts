import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { modelResponse } from '@/lib/sessions/session-model'

// GET /configsessions/{id}/finalizedmodel - the current state at final quality
export const GET = route(operations.getFinalizedModel, ({ params, principal, query }) =>
  modelResponse({ sessionId: params.sessionId, principal, query, quality: 'final' }),
)
