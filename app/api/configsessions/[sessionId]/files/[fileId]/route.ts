import { attachment } from '@/lib/api/content-disposition'
import { route } from '@/lib/api/route'
import { storedFileResponse } from '@/lib/api/untrusted-content'
import { db } from '@/lib/db'
import { findSession } from '@/lib/sessions/find-session'
import { findSessionFile } from '@/lib/sessions/find-session-file'
import * as operations from '@/lib/sessions/operations'

// GET /configsessions/{id}/files/{fileId} - download
export const GET = route(operations.getSessionFile, async ({ params, principal }) => {
  const session = await findSession(params.sessionId, principal)
  const file = await findSessionFile(session.id, params.fileId)
  return storedFileResponse(file, { 'content-disposition': attachment(file.name) })
})

// DELETE /configsessions/{id}/files/{fileId}
export const DELETE = route(operations.deleteSessionFile, async ({ params, principal }) => {
  const session = await findSession(params.sessionId, principal)
  await findSessionFile(session.id, params.fileId)
  await db.sessionFile.delete({ where: { id: params.fileId } })
})
