import { cookies } from 'next/headers'
import { SESSION_COOKIE } from '@/lib/auth/session-cookie'
import { verifyToken } from '@/lib/auth/tokens'
import type { User } from '@/lib/generated/prisma/client'

/** The signed-in user of a page request (server components), or null. */
export async function getPageUser(): Promise<User | null> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value
  if (!token) return null
  const verified = await verifyToken(token)
  return verified?.kind === 'user' ? verified.user : null
}
