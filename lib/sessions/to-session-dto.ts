import type { RenderSession } from '@/lib/generated/prisma/client'
import { signSessionKey } from '@/lib/sessions/session-keys'

export async function toSessionDto(sessionId: string, renderers: RenderSession[]) {
  return {
    id: sessionId,
    renderingKey: await signSessionKey(sessionId, 'rendering'),
    modelKey: await signSessionKey(sessionId, 'model'),
    renderSessions: renderers.map((renderer) => ({ rendererType: renderer.rendererType, sessionId: renderer.id })),
  }
}
