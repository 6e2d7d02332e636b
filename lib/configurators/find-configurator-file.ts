import { AppError } from '@/lib/api/errors'
import { findOwnedConfigurator } from '@/lib/configurators/find-owned-configurator'
import { db } from '@/lib/db'

export async function findConfiguratorFile(configuratorId: string, userId: string, path: string) {
  await findOwnedConfigurator(configuratorId, userId)
  const file = await db.configuratorFile.findUnique({ where: { configuratorId_path: { configuratorId, path } } })
  if (!file) throw new AppError('not_found', `File ${path} not found`)
  return file
}
