import type { ReactNode } from 'react'
import { ConfiguratorShell } from '@/components/studio/configurator-shell'

export default async function ConfiguratorLayout({
  children,
  params,
}: {
  children: ReactNode
  params: Promise<{ configuratorId: string }>
}) {
  const { configuratorId } = await params
  return <ConfiguratorShell configuratorId={configuratorId}>{children}</ConfiguratorShell>
}
