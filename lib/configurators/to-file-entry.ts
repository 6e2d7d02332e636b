import { formatDateTime } from '@/lib/format-date'
import type { ConfiguratorFile } from '@/lib/generated/prisma/client'

export function toFileEntry(file: ConfiguratorFile) {
  return { path: file.path, size: file.size, contentType: file.contentType, updatedAt: formatDateTime(file.updatedAt) }
}
