import { route } from '@/lib/api/route'
import { createConfigurator } from '@/lib/configurators/create-configurator'
import { listConfigurators } from '@/lib/configurators/list-configurators'
import * as operations from '@/lib/configurators/operations'
import { toConfiguratorDto } from '@/lib/configurators/to-configurator-dto'

// GET /configurators - the caller's configurators
export const GET = route(operations.listConfigurators, async ({ user }) =>
  (await listConfigurators(user.id)).map(toConfiguratorDto),
)

// POST /configurators - create one
export const POST = route(operations.createConfigurator, async ({ user, body }) => {
  const configurator = await createConfigurator({ userId: user.id, input: body })
  return { UUID: configurator.id }
})
