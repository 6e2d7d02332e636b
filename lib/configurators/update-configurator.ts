import { findOwnedConfigurator } from '@/lib/configurators/find-owned-configurator'
import type { UpdateConfiguratorInput } from '@/lib/configurators/schemas'
import { db } from '@/lib/db'
import type { Prisma } from '@/lib/generated/prisma/client'

export interface UpdateConfiguratorOptions {
  configuratorId: string
  userId: string
  input: UpdateConfiguratorInput
}

/** Changes only the fields sent. */
export async function updateConfigurator({ configuratorId, userId, input }: UpdateConfiguratorOptions) {
  await findOwnedConfigurator(configuratorId, userId)
  const { extraSettings, ...fields } = input
  return db.configurator.update({
    where: { id: configuratorId },
    data: { ...fields, ...(extraSettings && { extraSettings: extraSettings as Prisma.InputJsonObject }) },
  })
}
