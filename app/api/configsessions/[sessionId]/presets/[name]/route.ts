import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { applyPreset } from '@/lib/sessions/presets'
import { findSession } from '@/lib/sessions/sessions'

// POST /configsessions/{id}/presets/{name} - apply a preset; answers the new full state
export const POST = route(operations.applyPreset, async ({ params, principal }) =>
  applyPreset(await findSession(params.sessionId, principal), params.name),
)
