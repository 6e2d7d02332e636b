import { headers } from 'next/headers'
import { redirect } from 'next/navigation'
import { cache } from 'react'
import { getPageUser } from '@/lib/auth/get-page-user'
import { PAGE_PATH_HEADER, safeNextPath, signInPath } from '@/lib/auth/sign-in-path'

/**
 * The signed-in user of a studio page, or a redirect to the sign-in page that comes back to
 * the page. Cached per request: the layout and its page ask alike.
 */
export const requirePageUser = cache(async () => {
  const user = await getPageUser()
  if (!user) redirect(signInPath(safeNextPath((await headers()).get(PAGE_PATH_HEADER))))
  return user
})
