import { db } from '@/lib/db'

export interface PutConfiguratorFileOptions {
  configuratorId: string
  path: string
  blobHash: string
  size: number
  contentType: string
}

/** Points `path` at a stored blob, replacing whatever the path held before. */
export function putConfiguratorFile({ configuratorId, path, ...data }: PutConfiguratorFileOptions) {
  return db.configuratorFile.upsert({
    where: { configuratorId_path: { configuratorId, path } },
    create: { configuratorId, path, ...data },
    update: data,
  })
}
