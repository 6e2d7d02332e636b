import { AppError } from '@/lib/api/errors'
import { route } from '@/lib/api/route'
import { findSession } from '@/lib/sessions/find-session'
import { buildStoredState } from '@/lib/sessions/get-session-model'
import * as operations from '@/lib/sessions/operations'

// GET /configsessions/{id}/objectinfo - bounding box and volume of the current model
export const GET = route(operations.getObjectInfo, async ({ params, principal }) => {
  const { build } = await buildStoredState(await findSession(params.sessionId, principal), 'preview')
  if (!build.objectInfo) throw new AppError('conflict', `The model did not build; GET /api/configsessions/${params.sessionId}/log says why`)
  return build.objectInfo
})
