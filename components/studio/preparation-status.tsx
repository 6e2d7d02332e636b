'use client'

import { useQuery } from '@tanstack/react-query'
import { Spinner } from '@/components/ui/spinner'
import { apiJson } from '@/lib/client/api-client'
import { studioKeys } from '@/lib/client/studio-queries'
import type { ZPreparation } from '@/lib/configurators/schemas'

/** Where the background preparation of the model stands after the last change: customers' first models come from it. */
export function PreparationStatus({ configuratorId }: { configuratorId: string }) {
  const preparation = useQuery({
    queryKey: [...studioKeys.configurator(configuratorId), 'preparation'],
    queryFn: () => apiJson<typeof ZPreparation>(`/configurators/${configuratorId}/preparation`),
    // A change anywhere (another tab, the API) starts a new preparation: asked again now and then.
    refetchInterval: (query) => (query.state.data?.state === 'preparing' ? 1000 : 3000),
  })
  const state = preparation.data
  if (!state) return null
  const seconds = state.durationMs === null ? '' : ` in ${(state.durationMs / 1000).toFixed(1)} s`
  return (
    <p role="status" aria-label="Preparation" className="text-sm text-stone-700">
      {state.state === 'preparing' && <Spinner label="Preparing the model for customers: reading its parameters, building its defaults and presets…" />}
      {state.state === 'ready' &&
        `Prepared for customers${seconds}: ${state.builds} ${state.builds === 1 ? 'model' : 'models'} (the defaults${state.builds > 1 ? ' and each preset' : ''}) built${
          state.failedBuilds > 0 ? `, ${state.failedBuilds} did not build (see a session's log)` : ''
        }.`}
      {state.state === 'failed' && `The preparation failed${seconds}: ${state.message}`}
    </p>
  )
}
