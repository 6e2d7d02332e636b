import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/releases/operations'
import { compareReleases } from '@/lib/releases/releases'

// GET /configurators/{id}/releases/compare?from=&to= - what changed between two releases
export const GET = route(operations.compareReleases, ({ user, params, query }) => compareReleases({ configuratorId: params.configuratorId, userId: user.id, ...query }))
