import { route } from '@/lib/endpoints/route'
import { sessionModelDownload } from '@/lib/endpoints/responses'
import * as operations from '@/lib/sessions/operations'

// GET /configsessions/{id}/finalizedmodel - the current state at final quality
export const GET = route(operations.getFinalizedModel, ({ params, principal, query }) =>
  sessionModelDownload(params.sessionId, principal, query, 'final'),
)
