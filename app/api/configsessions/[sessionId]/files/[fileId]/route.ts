import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { deleteSessionFile, sessionFileResponse } from '@/lib/sessions/session-files'
import { findSession } from '@/lib/sessions/sessions'

// GET /configsessions/{id}/files/{fileId} - download
export const GET = route(operations.getSessionFile, async ({ params, principal }) =>
  sessionFileResponse({ sessionId: (await findSession(params.sessionId, principal)).id, fileId: params.fileId }),
)

// DELETE /configsessions/{id}/files/{fileId}
export const DELETE = route(operations.deleteSessionFile, async ({ params, principal }) =>
  deleteSessionFile({ sessionId: (await findSession(params.sessionId, principal)).id, fileId: params.fileId }),
)
