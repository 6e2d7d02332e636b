import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/snapshots/operations'
import { snapshotModelResponse } from '@/lib/snapshots/snapshots'

// GET /snapshots/{id}/finalizedmodel - the frozen values at final quality, for the shop's back end
export const GET = route(operations.getSnapshotFinalizedModel, ({ params, principal, query }) =>
  snapshotModelResponse({ snapshotId: params.snapshotId, principal, query, quality: 'final' }),
)
