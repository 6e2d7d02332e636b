import { db } from '@/lib/db'

export function listConfigurators(userId: string) {
  return db.configurator.findMany({ where: { userId }, orderBy: { createdAt: 'desc' } })
}
