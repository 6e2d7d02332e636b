'use client'

import Link from 'next/link'
import { usePathname } from 'next/navigation'
import type { ReactNode } from 'react'
import { FOCUS_RING } from '@/components/ui/button'
import { ErrorMessage } from '@/components/ui/error-message'
import { useApiQuery } from '@/components/use-api-query'

const TABS = [
  { label: 'Settings', segment: '' },
  { label: 'Editor', segment: '/editor' },
  { label: 'Releases', segment: '/releases' },
  { label: 'Files', segment: '/files' },
  { label: 'Parameters', segment: '/parameters' },
  { label: 'Scene', segment: '/scene' },
  { label: 'Applications', segment: '/applications' },
]

/** The configurator's title and tabs around each of its pages. */
export function ConfiguratorShell({ configuratorId, children }: { configuratorId: string; children: ReactNode }) {
  const pathname = usePathname()
  const configurator = useApiQuery('getConfigurator', { params: { configuratorId } })
  const base = `/studio/configurators/${configuratorId}`

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <nav aria-label="Breadcrumb" className="text-sm text-stone-600">
          <Link href="/studio" className={`rounded-sm hover:underline ${FOCUS_RING}`}>
            Configurators
          </Link>
          <span aria-hidden> / </span>
        </nav>
        <h1 className="text-2xl font-semibold tracking-tight">
          {configurator.data?.name ?? (configurator.isPending ? '…' : 'Configurator')}
        </h1>
      </div>
      <nav aria-label="Configurator" className="-mb-px flex gap-1 overflow-x-auto border-b border-stone-200">
        {TABS.map((tab) => {
          const href = `${base}${tab.segment}`
          const isCurrent = pathname === href
          return (
            <Link
              key={tab.label}
              href={href}
              aria-current={isCurrent ? 'page' : undefined}
              className={`whitespace-nowrap rounded-t-md border-b-2 px-3 py-2 text-sm font-medium ${FOCUS_RING} ${
                isCurrent
                  ? 'border-stone-900 text-stone-900'
                  : 'border-transparent text-stone-600 hover:border-stone-300 hover:text-stone-900'
              }`}
            >
              {tab.label}
            </Link>
          )
        })}
      </nav>
      {configurator.isError ? <ErrorMessage error={configurator.error} /> : children}
    </div>
  )
}
