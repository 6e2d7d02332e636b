import Link from 'next/link'
import { SignOutButton } from '@/components/auth/sign-out-button'
import { FOCUS_RING } from '@/components/ui/button'

export function StudioHeader({ email }: { email: string }) {
  return (
    <header className="border-b border-stone-200 bg-white">
      <a
        href="#content"
        className={`sr-only rounded-md bg-white px-3 py-2 text-sm focus:not-sr-only focus:absolute focus:left-4 focus:top-3 ${FOCUS_RING}`}
      >
        Skip to content
      </a>
      <div className="mx-auto flex max-w-screen-2xl items-center justify-between gap-4 px-6 py-3">
        <Link href="/studio" className={`flex items-baseline gap-2 rounded-md ${FOCUS_RING}`}>
          <span className="text-lg font-semibold tracking-tight">Paraform</span>
          <span className="text-sm text-stone-600">Studio</span>
        </Link>
        <div className="flex items-center gap-3">
          <Link
            href="/studio/libraries"
            className={`rounded-md text-sm text-stone-700 underline-offset-4 hover:underline ${FOCUS_RING}`}
          >
            Libraries
          </Link>
          <span className="hidden text-sm text-stone-600 sm:inline" title="Signed in as">
            {email}
          </span>
          <SignOutButton />
        </div>
      </div>
    </header>
  )
}
