import { route } from '@/lib/api/route'
import { deleteConfigurator } from '@/lib/configurators/delete-configurator'
import { findOwnedConfigurator } from '@/lib/configurators/find-owned-configurator'
import * as operations from '@/lib/configurators/operations'
import { toConfiguratorDto } from '@/lib/configurators/to-configurator-dto'
import { updateConfigurator } from '@/lib/configurators/update-configurator'

// GET /configurators/{id} - details
export const GET = route(operations.getConfigurator, async ({ user, params }) =>
  toConfiguratorDto(await findOwnedConfigurator(params.configuratorId, user.id)),
)

// PUT /configurators/{id} - update the fields sent
export const PUT = route(operations.updateConfigurator, async ({ user, params, body }) => {
  const configurator = await updateConfigurator({ configuratorId: params.configuratorId, userId: user.id, input: body })
  return { UUID: configurator.id }
})

// DELETE /configurators/{id}
export const DELETE = route(operations.deleteConfigurator, ({ user, params }) =>
  deleteConfigurator(params.configuratorId, user.id),
)
