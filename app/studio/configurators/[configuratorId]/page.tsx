import type { Metadata } from 'next'
import { ConfiguratorSettings } from '@/components/studio/configurator-settings'
import { requirePageUser } from '@/app/page-user'

export const metadata: Metadata = { title: 'Settings' }

export default async function ConfiguratorSettingsPage({ params }: { params: Promise<{ configuratorId: string }> }) {
  const { configuratorId } = await params
  await requirePageUser()
  return <ConfiguratorSettings configuratorId={configuratorId} />
}
