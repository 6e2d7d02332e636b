import { route } from '@/lib/endpoints/route'
import { modelFileDownload } from '@/lib/endpoints/responses'
import * as operations from '@/lib/sessions/operations'

// GET /configsessions/{id}/model - the current state at preview quality
export const GET = route(operations.getModel, ({ params, principal, query }) =>
  modelFileDownload('session', params.sessionId, principal, query, 'preview'),
)
