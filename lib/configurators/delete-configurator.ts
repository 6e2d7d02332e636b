import { findOwnedConfigurator } from '@/lib/configurators/find-owned-configurator'
import { db } from '@/lib/db'

export async function deleteConfigurator(configuratorId: string, userId: string): Promise<void> {
  await findOwnedConfigurator(configuratorId, userId)
  await db.configurator.delete({ where: { id: configuratorId } })
}
