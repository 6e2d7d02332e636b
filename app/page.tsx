import { Landing } from '@/components/landing'
import { getPageUser } from '@/app/page-user'

export default async function HomePage() {
  return <Landing isSignedIn={(await getPageUser()) !== null} />
}
