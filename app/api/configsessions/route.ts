import type { z } from 'zod'
import { ValidationError } from '@/lib/api/errors'
import { readLimitedBytes } from '@/lib/api/read-body'
import { parseJsonBody, route } from '@/lib/endpoints/route'
import { env } from '@/lib/env'
import * as operations from '@/lib/sessions/operations'
import { restoreSession } from '@/lib/sessions/restore-session'
import { ZCreateSession } from '@/lib/sessions/schemas'
import { buildStoredModel } from '@/lib/sessions/model-builds'
import { createSession, getSessionDetails } from '@/lib/sessions/sessions'

// POST /configsessions - open a session, or restore one from a saved zip
export const POST = route(operations.createSession, async ({ request, query, principal }) => {
  if (/^application\/(zip|x-zip-compressed)\b/i.test(request.headers.get('content-type') ?? '')) {
    const configuratorId = query.configuratorId ?? query.configuratorUUID
    if (!configuratorId)
      throw new ValidationError([{ path: ['query', 'configuratorId'], message: 'required to restore a saved session' }])
    const zip = await readLimitedBytes(request, env.MAX_UPLOAD_BYTES)
    const session = await restoreSession({ configuratorId, principal, zip })
    return getSessionDetails({ sessionId: session.id, renderers: session.renderers })
  }
  const body = (await parseJsonBody(ZCreateSession, request)) as z.infer<typeof ZCreateSession>
  const session = await createSession({
    configuratorId: (body.configuratorId ?? body.configuratorUUID)!,
    principal,
    draft: body.draft,
  })
  // The first build starts now, so it is usually done by the time the viewer asks for it.
  void buildStoredModel(session, 'preview').catch(() => {})
  return getSessionDetails({ sessionId: session.id, renderers: session.renderers })
})
