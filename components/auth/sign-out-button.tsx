'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from 'next/navigation'
import { Button } from '@/components/ui/button'
import { callApi } from '@/lib/endpoints/client'

export function SignOutButton() {
  const router = useRouter()
  const queryClient = useQueryClient()
  const signOut = useMutation({
    mutationFn: () => callApi('signOut'),
    onSettled: () => {
      queryClient.clear()
      router.replace('/signin')
      router.refresh()
    },
  })
  return (
    <Button variant="ghost" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      Sign out
    </Button>
  )
}
