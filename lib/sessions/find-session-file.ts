import { AppError } from '@/lib/api/errors'
import { db } from '@/lib/db'

export async function findSessionFile(sessionId: string, fileId: string) {
  const file = await db.sessionFile.findFirst({ where: { id: fileId, sessionId } })
  if (!file) throw new AppError('not_found', `File ${fileId} not found in this session`)
  return file
}
