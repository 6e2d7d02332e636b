import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { Configurator } from '@/components/configurator/configurator'
import { toQueryString, type PageSearchParams } from '@/components/configurator/share-values'
import { findEmbedApplication } from '@/lib/applications/applications'

interface EmbedPageProps {
  params: Promise<{ applicationKey: string }>
  searchParams: Promise<PageSearchParams>
}

export async function generateMetadata({ params }: EmbedPageProps): Promise<Metadata> {
  const application = await findEmbedApplication((await params).applicationKey)
  return { title: application?.configurator.name ?? 'Configurator not found', robots: { index: false } }
}

// GET /embed/{applicationKey} - a shop's configurator, framed by the shop (CSP set in server.ts)
export default async function EmbedPage({ params, searchParams }: EmbedPageProps) {
  const { applicationKey } = await params
  const application = await findEmbedApplication(applicationKey)
  if (!application) notFound()
  const { configurator } = application
  return (
    <main className="flex min-h-screen flex-col lg:h-screen">
      <Configurator
        configuratorId={configurator.id}
        auth={{ kind: 'application', apiKey: applicationKey }}
        initialQuery={toQueryString(await searchParams)}
        canDownloadFinal={!application.secureModel}
        productName={configurator.name}
        cadType={configurator.cadType}
        embedDomain={application.domain}
        header={<h1 className="text-lg font-semibold tracking-tight">{configurator.name}</h1>}
      />
    </main>
  )
}
