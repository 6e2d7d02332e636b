import { route } from '@/lib/endpoints/route'
import { snapshotModelDownload } from '@/lib/endpoints/responses'
import * as operations from '@/lib/snapshots/operations'

// GET /snapshots/{id}/finalizedmodel - the frozen values at final quality, for the shop's back end
export const GET = route(operations.getSnapshotFinalizedModel, ({ params, principal, query }) =>
  snapshotModelDownload(params.snapshotId, principal, query, 'final'),
)
