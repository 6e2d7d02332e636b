import { Readable } from 'node:stream'
import { route } from '@/lib/endpoints/route'
import { backupArchive } from '@/lib/backup/backup'
import * as operations from '@/lib/backup/operations'

// GET /backup - the installation as one zip, streamed as it is written (admins)
export const GET = route(operations.downloadBackup, async () => {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  return new Response(Readable.toWeb(Readable.from(backupArchive())) as ReadableStream<Uint8Array>, {
    headers: {
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="paraform-backup-${stamp}.zip"`,
      'cache-control': 'no-store',
    },
  })
})
