import type { Metadata } from 'next'
import { ModelEditor } from '@/components/studio/model-editor'
import { findPageConfigurator, requirePageUser } from '@/app/page-user'

export const metadata: Metadata = { title: 'Editor' }

// GET /studio/configurators/{id}/editor - edit the draft's files and see it build
export default async function ConfiguratorEditorPage({ params }: { params: Promise<{ configuratorId: string }> }) {
  const { configuratorId } = await params
  const user = await requirePageUser()
  const configurator = await findPageConfigurator({ configuratorId, userId: user.id })
  return <ModelEditor configuratorId={configurator.id} productName={configurator.name} cadType={configurator.cadType} />
}
