import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/publishing/operations'
import { rollBackRelease } from '@/lib/publishing/releases'

// POST /configurators/{id}/releases/{number}/rollback - new sessions get this release from now on
export const POST = route(operations.rollBackRelease, ({ user, params }) =>
  rollBackRelease({ configuratorId: params.configuratorId, userId: user.id, number: params.number }),
)
