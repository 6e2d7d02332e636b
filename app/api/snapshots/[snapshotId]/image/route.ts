import { apiPath } from '@/lib/endpoints/client'
import { imageResponse } from '@/lib/endpoints/responses'
import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/snapshots/operations'
import { renderSnapshotImage } from '@/lib/snapshots/snapshots'

// GET /snapshots/{id}/image - a server-side image of the frozen model in the frozen scene
export const GET = route(operations.getSnapshotImage, async ({ request, params, principal, query }) => {
  const { snapshotId } = params
  const image = await renderSnapshotImage({
    snapshotId,
    principal,
    query,
    request,
    logPath: apiPath('getSnapshot', { params }),
    // Its files' path parameter is read raw from the URL: the prefix is the path without it.
    filesPrefix: `${apiPath('getSnapshotFile', { params })}/`,
  })
  return imageResponse(image, query.type)
})
