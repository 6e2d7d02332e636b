import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/snapshots/operations'
import { snapshotFileResponse } from '@/lib/snapshots/snapshots'
import { rawPathAfter } from '@/lib/storage/file-path'

// GET /snapshots/{id}/files/{path} - a shader or texture of the frozen scene
export const GET = route(operations.getSnapshotFile, ({ request, params, principal, query }) =>
  snapshotFileResponse(params.snapshotId, principal, query.key, rawPathAfter(request, '/files/').join('/')),
)
