import { route } from '@/lib/endpoints/route'
import {
  deleteConfigurator,
  findOwnedConfigurator,
  toConfiguratorDto,
  updateConfigurator,
} from '@/lib/configurators/configurators'
import * as operations from '@/lib/configurators/operations'

// GET /configurators/{id} - details
export const GET = route(operations.getConfigurator, async ({ user, params }) =>
  toConfiguratorDto(await findOwnedConfigurator({ configuratorId: params.configuratorId, userId: user.id })),
)

// PUT /configurators/{id} - update the fields sent
export const PUT = route(operations.updateConfigurator, async ({ user, params, body }) => {
  const configurator = await updateConfigurator({ configuratorId: params.configuratorId, userId: user.id, input: body })
  return { UUID: configurator.id }
})

// DELETE /configurators/{id}
export const DELETE = route(operations.deleteConfigurator, ({ user, params }) =>
  deleteConfigurator({ configuratorId: params.configuratorId, userId: user.id }),
)
