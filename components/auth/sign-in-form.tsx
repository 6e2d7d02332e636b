'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from 'next/navigation'
import type { FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { ErrorMessage } from '@/components/ui/error-message'
import { Field, Input } from '@/components/ui/field'
import { callApiJson, type OperationBody } from '@/lib/endpoints/client'
import { formText } from '@/lib/client/form-text'

export function SignInForm({ next }: { next: string }) {
  const router = useRouter()
  const queryClient = useQueryClient()
  const signIn = useMutation({
    mutationFn: (credentials: OperationBody<'signIn'>) => callApiJson('signIn', { json: credentials }),
    onSuccess: () => {
      queryClient.clear()
      router.replace(next)
      router.refresh()
    },
  })

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    signIn.mutate({ email: formText(form, 'email'), password: formText(form, 'password') })
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <Field label="Email">
        {(control) => <Input {...control} name="email" type="email" autoComplete="username" required autoFocus />}
      </Field>
      <Field label="Password">
        {(control) => <Input {...control} name="password" type="password" autoComplete="current-password" required />}
      </Field>
      <ErrorMessage error={signIn.error} />
      <Button type="submit" disabled={signIn.isPending || signIn.isSuccess}>
        {signIn.isPending || signIn.isSuccess ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  )
}
