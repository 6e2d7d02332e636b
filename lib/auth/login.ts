import { AppError } from '@/lib/api/errors'
import { limits } from '@/lib/api/rate-limit'
import { hashPassword, verifyPassword } from '@/lib/auth/password'
import { issueToken } from '@/lib/auth/tokens'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import type { User } from '@/lib/generated/prisma/client'

// Verifying against a real hash when the email is unknown keeps both answers equally slow.
const unknownUserHash = hashPassword('no user has this password')

export interface LoginOptions {
  email: string
  password: string
  clientAddress: string
}

/**
 * The user with these credentials and a fresh user token for them. Failures back off per
 * account (known or not, so a 429 tells nothing about which emails exist) and per client
 * address; a success clears the account's failures and does not count for the address.
 */
export async function login({ email, password, clientAddress }: LoginOptions) {
  const account = email.toLowerCase()
  await limits.loginByAddress.begin(clientAddress)
  try {
    await limits.loginByAccount.begin(account)
  } catch (error) {
    await limits.loginByAddress.forgive(clientAddress)
    throw error
  }
  const user = await db.user.findUnique({ where: { email: account } })
  const isValid = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash))
  if (!user || !isValid) {
    await Promise.all([limits.loginByAccount.fail(account), limits.loginByAddress.fail(clientAddress)])
    throw new AppError('unauthorized', 'Email or password is wrong')
  }
  await Promise.all([limits.loginByAccount.reset(account), limits.loginByAddress.forgive(clientAddress)])
  const grant = await issueToken({ kind: 'user', userId: user.id, ttlSeconds: env.USER_TOKEN_TTL_SECONDS })
  return { user, grant }
}

/** The signed-in user as the browser UI's session endpoints answer it. */
export function toSessionUser({ id, email, role }: User) {
  return { user: { id, email, role } }
}
