import type { Metadata } from 'next'
import { FileManager } from '@/components/studio/file-manager'
import { requirePageUser } from '@/app/page-user'

export const metadata: Metadata = { title: 'Files' }

export default async function ConfiguratorFilesPage({ params }: { params: Promise<{ configuratorId: string }> }) {
  const { configuratorId } = await params
  await requirePageUser()
  return <FileManager configuratorId={configuratorId} />
}
