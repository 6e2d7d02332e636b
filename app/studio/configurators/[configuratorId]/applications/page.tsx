import { ApplicationsPanel } from '@/components/studio/applications-panel'
import { requirePageUser } from '@/lib/auth/require-page-user'

export default async function ConfiguratorApplicationsPage({ params }: { params: Promise<{ configuratorId: string }> }) {
  const { configuratorId } = await params
  await requirePageUser()
  return <ApplicationsPanel configuratorId={configuratorId} />
}
