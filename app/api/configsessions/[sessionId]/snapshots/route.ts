import { apiPath } from '@/lib/endpoints/client'
import { route } from '@/lib/endpoints/route'
import { findSession } from '@/lib/sessions/sessions'
import * as operations from '@/lib/snapshots/operations'
import { takeSnapshot } from '@/lib/snapshots/snapshots'

// POST /configsessions/{id}/snapshots - freeze the session for an order
export const POST = route(operations.createSnapshot, async ({ params, principal }) =>
  takeSnapshot(await findSession(params.sessionId, principal), apiPath('getLog', { params })),
)
