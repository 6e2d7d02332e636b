import { route } from '@/lib/api/route'
import { modelResponse } from '@/lib/sessions/session-model'
import * as operations from '@/lib/sessions/operations'

// GET /configsessions/{id}/model - the current state at preview quality
export const GET = route(operations.getModel, ({ params, principal, query }) =>
  modelResponse({ sessionId: params.sessionId, principal, query, quality: 'preview' }),
)
