import { AppError } from '@/lib/api/errors'
import { hashPassword, verifyPassword } from '@/lib/auth/password'
import { issueToken } from '@/lib/auth/tokens'
import { db } from '@/lib/db'
import { env } from '@/lib/env'

// Verifying against a real hash when the email is unknown keeps both answers equally slow.
const unknownUserHash = hashPassword('no user has this password')

/** The user with these credentials and a fresh user token for them. */
export async function login(email: string, password: string) {
  const user = await db.user.findUnique({ where: { email: email.toLowerCase() } })
  const isValid = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash))
  if (!user || !isValid) throw new AppError('unauthorized', 'Email or password is wrong')
  const grant = await issueToken({ kind: 'user', userId: user.id, ttlSeconds: env.USER_TOKEN_TTL_SECONDS })
  return { user, grant }
}
