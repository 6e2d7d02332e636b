import { findOwnedConfigurator } from '@/lib/configurators/find-owned-configurator'
import { db } from '@/lib/db'

export async function listApplications(configuratorId: string, userId: string) {
  await findOwnedConfigurator(configuratorId, userId)
  return db.application.findMany({ where: { configuratorId }, orderBy: { createdAt: 'asc' } })
}
