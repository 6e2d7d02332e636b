import type { Metadata } from 'next'
import { ConfiguratorList } from '@/components/studio/configurator-list'
import { requirePageUser } from '@/app/page-user'

export const metadata: Metadata = { title: 'Configurators' }

export default async function StudioPage() {
  await requirePageUser()
  return <ConfiguratorList />
}
