import { attachment } from '@/lib/api/content-disposition'
import { AppError } from '@/lib/api/errors'
import type { Principal } from '@/lib/auth/authenticate'
import type { MeshFormat } from '@/lib/cad/mesh/export-mesh'
import type { Quality } from '@/lib/sessions/build-session-model'
import { findSessionByKeyOrPrincipal } from '@/lib/sessions/find-session'
import { getSessionModel } from '@/lib/sessions/get-session-model'

export interface ModelResponseOptions {
  sessionId: string
  principal: Principal | null
  query: { type: MeshFormat; filename?: string; key?: string }
  quality: Quality
}

export async function modelResponse({ sessionId, principal, query, quality }: ModelResponseOptions): Promise<Response> {
  const session = await findSessionByKeyOrPrincipal(sessionId, principal, query.key, 'model')
  // secureModel: only the shop's back end (server token) or the owner fetches the final model.
  if (quality === 'final' && session.application?.secureModel && (principal === null || principal.kind === 'anonymous')) {
    throw new AppError('forbidden', "This application's finalized model needs the shop's server token")
  }
  const { bytes, contentType, source } = await getSessionModel(session, quality, query.type)
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      'content-type': contentType,
      'content-length': String(bytes.byteLength),
      'content-disposition': attachment(query.filename ?? `model.${query.type}`),
      'cache-control': 'private, no-store',
      'x-build-cache': source,
    },
  })
}
