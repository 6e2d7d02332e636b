import { ConfiguratorList } from '@/components/studio/configurator-list'
import { requirePageUser } from '@/lib/auth/require-page-user'

export default async function StudioPage() {
  await requirePageUser()
  return <ConfiguratorList />
}
