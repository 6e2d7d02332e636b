import type { Metadata } from 'next'
import { SceneEditor } from '@/components/scene-editor/scene-editor'
import { requirePageUser } from '@/app/page-user'
import { findPageConfigurator } from '@/app/page-user'

export const metadata: Metadata = { title: 'Scene' }

// GET /studio/configurators/{id}/scene - materials, shaders and uniforms per part, previewed live
export default async function ConfiguratorScenePage({ params }: { params: Promise<{ configuratorId: string }> }) {
  const { configuratorId } = await params
  const user = await requirePageUser()
  const configurator = await findPageConfigurator({ configuratorId, userId: user.id })
  return (
    <div className="flex h-[75vh] min-h-[36rem] flex-col overflow-hidden rounded-lg border border-stone-200 bg-white">
      <SceneEditor configuratorId={configurator.id} productName={configurator.name} cadType={configurator.cadType} />
    </div>
  )
}
