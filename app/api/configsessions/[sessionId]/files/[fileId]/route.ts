import { attachment } from '@/lib/api/content-disposition'
import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { deleteSessionFile, findSessionFile } from '@/lib/sessions/session-files'
import { findSession } from '@/lib/sessions/sessions'
import { storedFileResponse } from '@/lib/storage/untrusted-content'

// GET /configsessions/{id}/files/{fileId} - download, with the headers for content a customer uploaded
export const GET = route(operations.getSessionFile, async ({ params, principal }) => {
  const sessionId = (await findSession(params.sessionId, principal)).id
  const file = await findSessionFile({ sessionId, fileId: params.fileId })
  return storedFileResponse(file, { 'content-disposition': attachment(file.name) })
})

// DELETE /configsessions/{id}/files/{fileId}
export const DELETE = route(operations.deleteSessionFile, async ({ params, principal }) =>
  deleteSessionFile({ sessionId: (await findSession(params.sessionId, principal)).id, fileId: params.fileId }),
)
