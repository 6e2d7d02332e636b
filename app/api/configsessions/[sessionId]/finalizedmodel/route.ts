import { route } from '@/lib/endpoints/route'
import { modelFileDownload } from '@/lib/endpoints/responses'
import * as operations from '@/lib/sessions/operations'

// GET /configsessions/{id}/finalizedmodel - the current state at final quality
export const GET = route(operations.getFinalizedModel, ({ params, principal, query }) =>
  modelFileDownload('session', params.sessionId, principal, query, 'final'),
)
