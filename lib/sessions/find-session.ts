import { AppError } from '@/lib/api/errors'
import type { Principal } from '@/lib/auth/authenticate'
import { db } from '@/lib/db'
import { isValidSessionKey, type KeyPurpose } from '@/lib/sessions/session-keys'

function load(sessionId: string) {
  return db.configSession.findUnique({ where: { id: sessionId }, include: { configurator: true, application: true } })
}

export type LoadedSession = NonNullable<Awaited<ReturnType<typeof load>>>

/**
 * The session, when the caller may use it: the configurator's owner, or a token of the
 * application the session was opened through. Anyone else gets the same 404 as for a
 * session that does not exist.
 */
export async function findSession(sessionId: string, principal: Principal | null): Promise<LoadedSession> {
  const session = await load(sessionId)
  const isAllowed =
    session !== null &&
    principal !== null &&
    (principal.kind === 'user' ? session.configurator.userId === principal.user.id : session.applicationId === principal.application.id)
  if (!isAllowed) throw new AppError('not_found', `Session ${sessionId} not found`)
  return session
}

/** As findSession, but a `key` query parameter (modelKey or renderingKey) replaces the headers. */
export async function findSessionByKeyOrPrincipal(
  sessionId: string,
  principal: Principal | null,
  key: string | undefined,
  purpose: KeyPurpose,
): Promise<LoadedSession> {
  if (key === undefined) return findSession(sessionId, principal)
  if (!(await isValidSessionKey(key, sessionId, purpose))) throw new AppError('forbidden', `The key is not a valid ${purpose} key of this session`)
  const session = await load(sessionId)
  if (!session) throw new AppError('not_found', `Session ${sessionId} not found`)
  return session
}
