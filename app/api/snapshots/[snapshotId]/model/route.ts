import { route } from '@/lib/endpoints/route'
import { modelFileDownload } from '@/lib/endpoints/responses'
import * as operations from '@/lib/snapshots/operations'

// GET /snapshots/{id}/model - the frozen values at preview quality
export const GET = route(operations.getSnapshotModel, ({ params, principal, query }) =>
  modelFileDownload('snapshot', params.snapshotId, principal, query, 'preview'),
)
