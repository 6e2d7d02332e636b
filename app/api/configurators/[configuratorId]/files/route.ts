import { route } from '@/lib/api/route'
import { listConfiguratorFiles } from '@/lib/configurators/list-configurator-files'
import * as operations from '@/lib/configurators/operations'
import { toFileEntry } from '@/lib/configurators/to-file-entry'

// GET /configurators/{id}/files - every file of both trees
export const GET = route(operations.listConfiguratorFiles, async ({ user, params }) =>
  (await listConfiguratorFiles(params.configuratorId, user.id)).map(toFileEntry),
)
