import { cookies, headers } from 'next/headers'
import { notFound, redirect } from 'next/navigation'
import { cache } from 'react'
import { AppError } from '@/lib/api/errors'
import { SESSION_COOKIE } from '@/lib/auth/session-cookie'
import { PAGE_PATH_HEADER, safeNextPath, signInPath } from '@/lib/auth/sign-in-path'
import { verifyToken } from '@/lib/auth/tokens'
import { findOwnedConfigurator, type OwnedConfiguratorOptions } from '@/lib/configurators/configurators'
import { ZConfiguratorId } from '@/lib/configurators/schemas'
import type { User } from '@/lib/generated/prisma/client'

/** The signed-in user of a page request (server components), or null. */
export async function getPageUser(): Promise<User | null> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value
  if (!token) return null
  const verified = await verifyToken(token)
  return verified?.kind === 'user' ? verified.user : null
}

/**
 * The signed-in user of a studio page, or a redirect to the sign-in page that comes back to
 * the page. Cached per request: the layout and its page ask alike.
 */
export const requirePageUser = cache(async () => {
  const user = await getPageUser()
  if (!user) redirect(signInPath(safeNextPath((await headers()).get(PAGE_PATH_HEADER))))
  return user
})

/**
 * For pages: the user's configurator, or Next's 404 page (someone else's looks exactly like a
 * missing one). Kept with the pages: next/navigation must stay out of the domain modules that
 * scripts outside Next (the bench) load.
 */
export async function findPageConfigurator(options: OwnedConfiguratorOptions) {
  if (!ZConfiguratorId.safeParse(options.configuratorId).success) notFound()
  try {
    return await findOwnedConfigurator(options)
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') notFound()
    throw error
  }
}
