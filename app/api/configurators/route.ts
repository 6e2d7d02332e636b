import { route } from '@/lib/endpoints/route'
import { createConfigurator, listConfigurators, toConfiguratorDto } from '@/lib/configurators/configurators'
import * as operations from '@/lib/configurators/operations'

// GET /configurators - the caller's configurators
export const GET = route(operations.listConfigurators, async ({ user }) =>
  (await listConfigurators({ userId: user.id })).map(toConfiguratorDto),
)

// POST /configurators - create one
export const POST = route(operations.createConfigurator, async ({ user, body }) => {
  const configurator = await createConfigurator({ userId: user.id, input: body })
  return { UUID: configurator.id }
})
