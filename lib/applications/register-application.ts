import { randomBytes } from 'node:crypto'
import type { RegisterApplicationInput } from '@/lib/applications/schemas'
import { findOwnedConfigurator } from '@/lib/configurators/find-owned-configurator'
import { db } from '@/lib/db'

export interface RegisterApplicationOptions {
  configuratorId: string
  userId: string
  input: RegisterApplicationInput
}

export async function registerApplication({ configuratorId, userId, input }: RegisterApplicationOptions) {
  await findOwnedConfigurator(configuratorId, userId)
  return db.application.create({
    data: {
      ...input,
      configuratorId,
      key: `pk_${randomBytes(18).toString('base64url')}`,
      secretKey: `sk_${randomBytes(32).toString('base64url')}`,
    },
  })
}
