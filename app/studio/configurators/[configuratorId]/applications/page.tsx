import type { Metadata } from 'next'
import { ApplicationsPanel } from '@/components/studio/applications-panel'
import { requirePageUser } from '@/app/page-user'

export const metadata: Metadata = { title: 'Applications' }

export default async function ConfiguratorApplicationsPage({
  params,
}: {
  params: Promise<{ configuratorId: string }>
}) {
  const { configuratorId } = await params
  await requirePageUser()
  return <ApplicationsPanel configuratorId={configuratorId} />
}
