import { findConfiguratorFile } from '@/lib/configurators/find-configurator-file'
import { db } from '@/lib/db'

/** Removes the path; the blob stays, since other paths may share the same content. */
export async function deleteConfiguratorFile(configuratorId: string, userId: string, path: string): Promise<void> {
  await findConfiguratorFile(configuratorId, userId, path)
  await db.configuratorFile.delete({ where: { configuratorId_path: { configuratorId, path } } })
}
