import { FileManager } from '@/components/studio/file-manager'
import { requirePageUser } from '@/lib/auth/require-page-user'

export default async function ConfiguratorFilesPage({ params }: { params: Promise<{ configuratorId: string }> }) {
  const { configuratorId } = await params
  await requirePageUser(`/studio/configurators/${configuratorId}/files`)
  return <FileManager configuratorId={configuratorId} />
}
