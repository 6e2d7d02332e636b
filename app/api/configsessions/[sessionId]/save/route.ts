import { attachment } from '@/lib/api/content-disposition'
import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/sessions/operations'
import { saveSession } from '@/lib/sessions/save-session'
import { findSession } from '@/lib/sessions/sessions'

// GET /configsessions/{id}/save - the whole session as a zip
export const GET = route(operations.saveSession, async ({ params, principal }) => {
  const zip = await saveSession(await findSession(params.sessionId, principal), principal)
  return new Response(zip as Uint8Array<ArrayBuffer>, {
    headers: {
      'content-type': 'application/zip',
      'content-disposition': attachment(`session-${params.sessionId}.zip`),
    },
  })
})
