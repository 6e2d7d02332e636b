import { AppError } from '@/lib/api/errors'
import { db } from '@/lib/db'

/** A configurator the user owns; anyone else's is answered exactly like a missing one. */
export async function findOwnedConfigurator(configuratorId: string, userId: string) {
  const configurator = await db.configurator.findFirst({ where: { id: configuratorId, userId } })
  if (!configurator) throw new AppError('not_found', `Configurator ${configuratorId} not found`)
  return configurator
}
