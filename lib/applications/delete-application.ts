import { findOwnedApplication } from '@/lib/applications/find-owned-application'
import { db } from '@/lib/db'

/** Deleting an application also revokes every token issued with its keys (cascade). */
export async function deleteApplication(applicationId: string, userId: string): Promise<void> {
  await findOwnedApplication(applicationId, userId)
  await db.application.delete({ where: { id: applicationId } })
}
