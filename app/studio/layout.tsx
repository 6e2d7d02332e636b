import type { Metadata } from 'next'
import type { ReactNode } from 'react'
import { StudioHeader } from '@/components/studio/studio-header'
import { requirePageUser } from '@/app/page-user'

export const metadata: Metadata = { title: { default: 'Studio', template: '%s · Paraform Studio' } }

// Each studio page checks the session itself too (layouts are not re-run on client
// navigation); this check guards whatever page is added below without one.
export default async function StudioLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser()
  return (
    <div className="flex min-h-screen flex-col">
      <StudioHeader email={user.email} />
      <main id="content" className="mx-auto w-full max-w-screen-2xl flex-1 px-6 py-8">
        {children}
      </main>
    </div>
  )
}
