import type { Metadata } from 'next'
import Link from 'next/link'
import { Configurator } from '@/components/configurator/configurator'
import { toQueryString, type PageSearchParams } from '@/components/configurator/share-values'
import { requirePageUser } from '@/app/page-user'
import { findPageConfigurator } from '@/app/page-user'

export const metadata: Metadata = { title: 'Configure' }

interface ConfigurePageProps {
  params: Promise<{ configuratorId: string }>
  searchParams: Promise<PageSearchParams>
}

// GET /configure/{configuratorId} - the owner tries the live configurator as customers see it;
// with ?draft=1 (the draft link), the draft as customers will see it once published
export default async function ConfigurePage({ params, searchParams }: ConfigurePageProps) {
  const { configuratorId } = await params
  const { draft, ...shared } = await searchParams
  const isDraft = draft !== undefined
  const initialQuery = toQueryString(shared)
  const user = await requirePageUser()
  const configurator = await findPageConfigurator({ configuratorId, userId: user.id })
  return (
    <main className="flex min-h-screen flex-col lg:h-screen">
      <Configurator
        configuratorId={configurator.id}
        auth={{ kind: 'cookie' }}
        initialQuery={initialQuery}
        canDownloadFinal
        productName={configurator.name}
        cadType={configurator.cadType}
        preview={isDraft ? { draft: true } : undefined}
        header={
          <div className="flex flex-col gap-1">
            <Link
              href={`/studio/configurators/${configurator.id}`}
              className="text-xs text-stone-600 underline-offset-2 hover:underline"
            >
              Back to the studio
            </Link>
            <h1 className="text-lg font-semibold tracking-tight">
              {configurator.name}
              {isDraft && (
                <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 align-middle text-xs font-medium text-amber-950">
                  Draft
                </span>
              )}
            </h1>
            {configurator.description && <p className="text-sm text-stone-600">{configurator.description}</p>}
          </div>
        }
      />
    </main>
  )
}
