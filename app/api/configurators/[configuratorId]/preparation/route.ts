import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/configurators/operations'
import { getPreparation } from '@/lib/sessions/preparation'

// GET /configurators/{id}/preparation - the state of the model's background preparation
export const GET = route(operations.getPreparation, ({ user, params }) =>
  getPreparation({ configuratorId: params.configuratorId, userId: user.id }),
)
