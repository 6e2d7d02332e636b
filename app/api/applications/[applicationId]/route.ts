import { deleteApplication } from '@/lib/applications/delete-application'
import { findOwnedApplication } from '@/lib/applications/find-owned-application'
import * as operations from '@/lib/applications/operations'
import { toApplicationDto } from '@/lib/applications/to-application-dto'
import { route } from '@/lib/api/route'

// GET /applications/{id} - details with key and secretKey, for the owner only
export const GET = route(operations.getApplication, async ({ user, params }) =>
  toApplicationDto(await findOwnedApplication(params.applicationId, user.id)),
)

// DELETE /applications/{id}
export const DELETE = route(operations.deleteApplication, ({ user, params }) =>
  deleteApplication(params.applicationId, user.id),
)
