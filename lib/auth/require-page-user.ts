import { redirect } from 'next/navigation'
import { getPageUser } from '@/lib/auth/get-page-user'
import { signInPath } from '@/lib/auth/sign-in-path'

/** The signed-in user of a page, or a redirect to the sign-in page that comes back to `path`. */
export async function requirePageUser(path: string) {
  const user = await getPageUser()
  if (!user) redirect(signInPath(path))
  return user
}
