import { deleteApplication, findOwnedApplication, toApplicationDto } from '@/lib/applications/applications'
import * as operations from '@/lib/applications/operations'
import { route } from '@/lib/endpoints/route'

// GET /applications/{id} - details with key and secretKey, for the owner only
export const GET = route(operations.getApplication, async ({ user, params }) =>
  toApplicationDto(await findOwnedApplication({ applicationId: params.applicationId, userId: user.id })),
)

// DELETE /applications/{id}
export const DELETE = route(operations.deleteApplication, ({ user, params }) =>
  deleteApplication({ applicationId: params.applicationId, userId: user.id }),
)
