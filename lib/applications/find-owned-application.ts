import { AppError } from '@/lib/api/errors'
import { db } from '@/lib/db'

export async function findOwnedApplication(applicationId: string, userId: string) {
  const application = await db.application.findFirst({ where: { id: applicationId, configurator: { userId } } })
  if (!application) throw new AppError('not_found', `Application ${applicationId} not found`)
  return application
}
