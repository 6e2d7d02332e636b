import { route } from '@/lib/endpoints/route'
import { snapshotModelDownload } from '@/lib/endpoints/responses'
import * as operations from '@/lib/snapshots/operations'

// GET /snapshots/{id}/model - the frozen values at preview quality
export const GET = route(operations.getSnapshotModel, ({ params, principal, query }) =>
  snapshotModelDownload(params.snapshotId, principal, query, 'preview'),
)
