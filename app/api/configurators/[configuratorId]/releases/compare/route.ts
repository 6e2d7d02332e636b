import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/publishing/operations'
import { compareReleases } from '@/lib/publishing/releases'

// GET /configurators/{id}/releases/compare?from=&to= - what changed between two releases
export const GET = route(operations.compareReleases, ({ user, params, query }) =>
  compareReleases({ configuratorId: params.configuratorId, userId: user.id, ...query }),
)
