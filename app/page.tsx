import { Landing } from '@/components/landing'
import { getPageUser } from '@/lib/auth/page-user'

export default async function HomePage() {
  return <Landing isSignedIn={(await getPageUser()) !== null} />
}
