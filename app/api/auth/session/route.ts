import { readClientAddress } from '@/lib/api/client-address'
import { route } from '@/lib/endpoints/route'
import { login, toSessionUser } from '@/lib/auth/login'
import * as operations from '@/lib/auth/operations'
import { clearedSessionCookie, sessionCookie } from '@/lib/auth/session-cookie'
import { revokeToken } from '@/lib/auth/tokens'

// POST /auth/session - sign a browser in: the user token goes into an httpOnly cookie
export const POST = route(operations.signIn, async ({ request, body, responseHeaders }) => {
  const { user, grant } = await login({ ...body, clientAddress: readClientAddress(request) })
  responseHeaders.set('set-cookie', sessionCookie(request, grant.accessToken, grant.expiresIn))
  return toSessionUser(user)
})

// GET /auth/session - who is signed in
export const GET = route(operations.getSignedInUser, async ({ user }) => toSessionUser(user))

// DELETE /auth/session - sign out: revoke the session's token and clear the cookie, signed in or not
export const DELETE = route(operations.signOut, async ({ request, principal, responseHeaders }) => {
  if (principal?.kind === 'user') await revokeToken(principal.tokenId)
  responseHeaders.set('set-cookie', clearedSessionCookie(request))
})
