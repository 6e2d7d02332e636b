import type { Metadata } from 'next'
import Link from 'next/link'
import { redirect } from 'next/navigation'
import { SignInForm } from '@/components/auth/sign-in-form'
import { Card } from '@/components/ui/card'
import { getPageUser } from '@/app/page-user'
import { safeNextPath } from '@/lib/auth/sign-in-path'
import { env } from '@/lib/env'
import { pendingAdminPasswordFile } from '@/lib/users/admin-password'

export const metadata: Metadata = { title: 'Sign in' }

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>
}) {
  const next = safeNextPath((await searchParams).next)
  if (await getPageUser()) redirect(next)
  const passwordFile = pendingAdminPasswordFile()
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-16">
      <div className="flex w-full max-w-sm flex-col gap-6">
        <div className="flex flex-col gap-2 text-center">
          <Link href="/" className="text-sm font-semibold tracking-tight text-stone-700 hover:text-stone-900">
            Paraform
          </Link>
          <h1 className="text-2xl font-semibold tracking-tight">Sign in to the studio</h1>
          <p className="text-sm text-stone-600">Design configurators, upload models and register your shops.</p>
        </div>
        <Card>
          <SignInForm next={next} />
        </Card>
        {passwordFile && (
          <p className="text-center text-sm text-stone-600">
            First start? The admin ({env.ADMIN_EMAIL ?? 'admin@localhost'}) signs in with the password written to{' '}
            <code className="break-all font-mono text-stone-800">{passwordFile}</code> on the server.
          </p>
        )}
      </div>
    </main>
  )
}
