import { headers } from 'next/headers'
import { Landing } from '@/components/landing'
import { getPageUser } from '@/app/page-user'
import { DEVELOPMENT_HOSTS } from '@/lib/applications/application-tokens'
import { listPublicDemos } from '@/lib/applications/applications'
import { env } from '@/lib/env'

export default async function HomePage() {
  // The demo shop is a local sample (its back end beside this server, its application framed from
  // localhost): linked only where the page itself is read on this machine.
  const hostname = URL.parse(`http://${(await headers()).get('host')}`)?.hostname ?? ''
  const demoShopUrl =
    env.PUBLIC_DEMOS && env.DEMO_SHOP_PORT > 0 && DEVELOPMENT_HOSTS.includes(hostname)
      ? `http://localhost:${env.DEMO_SHOP_PORT}/`
      : null
  return (
    <Landing isSignedIn={(await getPageUser()) !== null} demos={await listPublicDemos()} demoShopUrl={demoShopUrl} />
  )
}
