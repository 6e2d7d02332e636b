import { readLimitedBytes } from '@/lib/api/read-body'
import { route } from '@/lib/endpoints/route'
import { uploadConfiguratorArchive } from '@/lib/configurators/configurator-archives'
import { toFileEntry } from '@/lib/configurators/configurator-files'
import * as operations from '@/lib/configurators/operations'
import { env } from '@/lib/env'

// POST /configurators/{id}/archives - unpack a project zip into the configurator folder
export const POST = route(operations.uploadConfiguratorArchive, async ({ request, user, params, query }) => {
  const zip = await readLimitedBytes(request, env.MAX_UPLOAD_BYTES)
  const { mainFile, files } = await uploadConfiguratorArchive({
    configuratorId: params.configuratorId,
    userId: user.id,
    zip,
    ...query,
  })
  return { mainFile, files: files.map(toFileEntry) }
})
