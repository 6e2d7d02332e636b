import { route } from '@/lib/endpoints/route'
import { listConfiguratorFiles, toFileEntry } from '@/lib/configurators/configurator-files'
import * as operations from '@/lib/configurators/operations'

// GET /configurators/{id}/files - every file of both trees
export const GET = route(operations.listConfiguratorFiles, async ({ user, params }) =>
  (await listConfiguratorFiles({ configuratorId: params.configuratorId, userId: user.id })).map(toFileEntry),
)
