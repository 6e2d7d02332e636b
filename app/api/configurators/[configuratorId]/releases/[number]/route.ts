import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/publishing/operations'
import { getRelease } from '@/lib/publishing/releases'

// GET /configurators/{id}/releases/{number} - one release
export const GET = route(operations.getRelease, ({ user, params }) =>
  getRelease({ configuratorId: params.configuratorId, userId: user.id, number: params.number }),
)
