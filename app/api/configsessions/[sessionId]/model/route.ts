import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { modelResponse } from '@/lib/sessions/session-model'

// GET /configsessions/{id}/model - the current state at preview quality
export const GET = route(operations.getModel, ({ params, principal, query }) =>
  modelResponse({ sessionId: params.sessionId, principal, query, quality: 'preview' }),
)
