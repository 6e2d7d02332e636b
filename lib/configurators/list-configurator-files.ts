import { findOwnedConfigurator } from '@/lib/configurators/find-owned-configurator'
import { db } from '@/lib/db'

export async function listConfiguratorFiles(configuratorId: string, userId: string) {
  await findOwnedConfigurator(configuratorId, userId)
  return db.configuratorFile.findMany({ where: { configuratorId }, orderBy: { path: 'asc' } })
}
