import type { Metadata } from 'next'
import { LibraryList } from '@/components/studio/library-list'
import { requirePageUser } from '@/app/page-user'

export const metadata: Metadata = { title: 'Libraries and fonts' }

// GET /studio/libraries - the libraries every configurator can include; admins install them
export default async function LibrariesPage() {
  const user = await requirePageUser()
  return <LibraryList canManage={user.role === 'admin'} />
}
