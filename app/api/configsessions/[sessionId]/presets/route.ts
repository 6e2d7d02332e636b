import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { listPresets } from '@/lib/sessions/presets'
import { findSession } from '@/lib/sessions/sessions'

// GET /configsessions/{id}/presets - the model's named parameter sets
export const GET = route(operations.listPresets, async ({ params, principal }) =>
  listPresets(await findSession(params.sessionId, principal)),
)
