import type { Metadata } from 'next'
import { Configurator } from '@/components/configurator/configurator'
import { requirePageUser } from '@/app/page-user'
import { findPageConfigurator } from '@/app/page-user'

export const metadata: Metadata = { title: 'Parameters' }

// GET /studio/configurators/{id}/parameters - the controls customers get, read from the model
export default async function ConfiguratorParametersPage({ params }: { params: Promise<{ configuratorId: string }> }) {
  const { configuratorId } = await params
  const user = await requirePageUser()
  const configurator = await findPageConfigurator({ configuratorId, userId: user.id })
  return (
    <div className="flex h-[75vh] min-h-[36rem] flex-col overflow-hidden rounded-lg border border-stone-200 bg-white">
      <Configurator
        configuratorId={configurator.id}
        auth={{ kind: 'cookie' }}
        initialQuery=""
        canDownloadFinal
        canSavePresets
        productName={configurator.name}
        cadType={configurator.cadType}
        header={
          <p className="text-sm text-stone-600">
            These controls come from the model's parameters, grouped as in the model. This is exactly what customers
            see; values set here change only this preview.
          </p>
        }
      />
    </div>
  )
}
