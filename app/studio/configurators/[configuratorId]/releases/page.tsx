import type { Metadata } from 'next'
import { ReleasesPanel } from '@/components/studio/releases-panel'
import { requirePageUser } from '@/app/page-user'

export const metadata: Metadata = { title: 'Releases' }

// GET /studio/configurators/{id}/releases - publish the draft, roll back, compare releases
export default async function ConfiguratorReleasesPage({ params }: { params: Promise<{ configuratorId: string }> }) {
  const { configuratorId } = await params
  await requirePageUser()
  return <ReleasesPanel configuratorId={configuratorId} />
}
