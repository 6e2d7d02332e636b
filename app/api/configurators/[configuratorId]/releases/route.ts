import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/publishing/operations'
import { listReleases, publishRelease } from '@/lib/publishing/releases'

// GET /configurators/{id}/releases - the configurator's releases, newest first
export const GET = route(operations.listReleases, ({ user, params }) =>
  listReleases({ configuratorId: params.configuratorId, userId: user.id }),
)

// POST /configurators/{id}/releases - publish the prepared draft as the next release
export const POST = route(operations.publishRelease, ({ user, params, body }) =>
  publishRelease({ configuratorId: params.configuratorId, userId: user.id, input: body }),
)
