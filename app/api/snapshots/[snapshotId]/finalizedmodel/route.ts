import { route } from '@/lib/endpoints/route'
import { modelFileDownload } from '@/lib/endpoints/responses'
import * as operations from '@/lib/snapshots/operations'

// GET /snapshots/{id}/finalizedmodel - the frozen values at final quality, for the shop's back end
export const GET = route(operations.getSnapshotFinalizedModel, ({ params, principal, query }) =>
  modelFileDownload('snapshot', params.snapshotId, principal, query, 'final'),
)
