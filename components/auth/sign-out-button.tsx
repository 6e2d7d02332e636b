'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from 'next/navigation'
import { Button } from '@/components/ui/button'
import { apiRequest } from '@/lib/client/api-client'

export function SignOutButton() {
  const router = useRouter()
  const queryClient = useQueryClient()
  const signOut = useMutation({
    mutationFn: () => apiRequest('/auth/session', { method: 'DELETE' }),
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
