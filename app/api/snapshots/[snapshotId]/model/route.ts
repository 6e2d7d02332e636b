import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/snapshots/operations'
import { snapshotModelResponse } from '@/lib/snapshots/snapshots'

// GET /snapshots/{id}/model - the frozen values at preview quality
export const GET = route(operations.getSnapshotModel, ({ params, principal, query }) =>
  snapshotModelResponse({ snapshotId: params.snapshotId, principal, query, quality: 'preview' }),
)
