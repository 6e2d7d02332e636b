import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/snapshots/operations'
import { findSnapshotFile } from '@/lib/snapshots/snapshots'
import { rawPathAfter } from '@/lib/storage/file-path'
import { storedFileResponse } from '@/lib/storage/untrusted-content'

// GET /snapshots/{id}/files/{path} - a shader or texture of the frozen scene
export const GET = route(operations.getSnapshotFile, async ({ request, params, principal, query }) => {
  const path = rawPathAfter(request, '/files/').join('/')
  const file = await findSnapshotFile(params.snapshotId, principal, query.key, path)
  return storedFileResponse(file, { etag: `"${file.blobHash}"`, 'cache-control': 'private, max-age=300' })
})
