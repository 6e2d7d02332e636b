import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/snapshots/operations'
import { snapshotImageResponse } from '@/lib/snapshots/snapshots'

// GET /snapshots/{id}/image - a server-side image of the frozen model in the frozen scene
export const GET = route(operations.getSnapshotImage, ({ request, params, principal, query }) =>
  snapshotImageResponse({ snapshotId: params.snapshotId, principal, query, request }),
)
