import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/snapshots/operations'
import { deleteSnapshot, findSnapshot, toSnapshotDto } from '@/lib/snapshots/snapshots'

// GET /snapshots/{id}
export const GET = route(operations.getSnapshot, async ({ params, principal }) =>
  toSnapshotDto(await findSnapshot(params.snapshotId, principal)),
)

// DELETE /snapshots/{id} - the owner only
export const DELETE = route(operations.deleteSnapshot, ({ params, user }) => deleteSnapshot(params.snapshotId, user.id))
