import { apiPath } from '@/lib/endpoints/client'
import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { getObjectInfo } from '@/lib/sessions/session-model'
import { findSession } from '@/lib/sessions/sessions'

// GET /configsessions/{id}/objectinfo - bounding box and volume of the current model
export const GET = route(operations.getObjectInfo, async ({ params, principal }) =>
  getObjectInfo(await findSession(params.sessionId, principal), apiPath('getLog', { params })),
)
