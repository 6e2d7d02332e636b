import { timingSafeEqual } from 'node:crypto'
import type { Application, User } from '@/lib/generated/prisma/client'
import { AppError } from '@/lib/api/errors'
import { isSameOriginOrSafe, readSessionCookie } from '@/lib/auth/session-cookie'
import { verifyToken } from '@/lib/auth/tokens'

/** An anonymous principal is one end customer: `identityId` stays the same across token renewals. */
export type Principal =
  | { kind: 'user'; tokenId: string; user: User }
  | { kind: 'anonymous'; tokenId: string; application: Application; identityId: string }
  | { kind: 'server'; tokenId: string; application: Application }

/**
 * The caller behind `Authorization: Bearer ...`, or else behind the browser UI's session
 * cookie; null when neither is there. A cookie that is stale counts as no cookie, so a signed-out
 * browser can still sign in; one on a cross-site request that changes something is refused.
 */
export async function authenticate(request: Request): Promise<Principal | null> {
  const header = request.headers.get('authorization')
  if (header === null) return authenticateCookie(request)
  const match = /^Bearer ([A-Za-z0-9_\-.]{1,2048})$/.exec(header.trim())
  if (!match?.[1]) throw new AppError('unauthorized', "Authorization header must be 'Bearer <token>'")
  const token = await verifyToken(match[1])
  if (!token) throw new AppError('unauthorized', 'Token is invalid, expired or revoked')
  if (token.kind === 'user' && token.user) return { kind: 'user', tokenId: token.id, user: token.user }
  // Anonymous tokens issued before identities existed are each their own identity.
  if (token.kind === 'anonymous' && token.application)
    return {
      kind: 'anonymous',
      tokenId: token.id,
      application: token.application,
      identityId: token.identityId ?? token.id,
    }
  if (token.kind === 'server' && token.application)
    return { kind: 'server', tokenId: token.id, application: token.application }
  throw new AppError('unauthorized', 'Token is invalid, expired or revoked')
}

async function authenticateCookie(request: Request): Promise<Principal | null> {
  const cookieToken = readSessionCookie(request.headers.get('cookie'))
  if (cookieToken === null) return null
  if (!isSameOriginOrSafe(request))
    throw new AppError('forbidden', 'A signed-in browser may change things only from pages of this site')
  const token = await verifyToken(cookieToken)
  return token?.kind === 'user' && token.user ? { kind: 'user', tokenId: token.id, user: token.user } : null
}

export function requireUser(principal: Principal | null): Extract<Principal, { kind: 'user' }> {
  if (!principal) throw new AppError('unauthorized', 'Sign in, or send a bearer token')
  if (principal.kind !== 'user')
    throw new AppError('forbidden', 'This endpoint needs a user token, not an application token')
  return principal
}

/** A user, or an application token sent together with that application's X-API-KEY. */
export function requireSessionPrincipal(principal: Principal | null, headers: Headers): Principal {
  if (!principal) throw new AppError('unauthorized', 'Sign in, or send a bearer token')
  if (principal.kind === 'user') return principal
  const apiKey = headers.get('x-api-key')
  if (!apiKey) throw new AppError('unauthorized', 'X-API-KEY header is required with an application token')
  const expected = Buffer.from(principal.application.key)
  const given = Buffer.from(apiKey)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError('forbidden', "X-API-KEY is not the key of the token's application")
  }
  return principal
}
