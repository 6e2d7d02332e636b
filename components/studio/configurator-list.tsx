'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import Link from 'next/link'
import { CreateConfiguratorForm } from '@/components/studio/create-configurator-form'
import { FOCUS_RING } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { ConfirmButton } from '@/components/ui/confirm-button'
import { ErrorMessage } from '@/components/ui/error-message'
import { Spinner } from '@/components/ui/spinner'
import { useApiQuery } from '@/components/use-api-query'
import { callApi, operationKey } from '@/lib/endpoints/client'

/** Whether the model builds, as its last preparation found: what a customer opening it now gets. */
function BuildState({ configuratorId }: { configuratorId: string }) {
  const preparation = useApiQuery(
    'getPreparation',
    { params: { configuratorId } },
    { refetchInterval: (query) => (query.state.data?.state === 'preparing' ? 1000 : false) },
  )
  const state = preparation.data
  if (!state || state.state === 'none') return null
  const [text, tone] =
    state.state === 'preparing'
      ? ['Preparing…', 'bg-stone-100 text-stone-700']
      : state.state === 'failed' || state.failedBuilds > 0
        ? [
            state.state === 'failed'
              ? 'Does not build'
              : `${state.failedBuilds} of ${state.builds} models do not build`,
            'bg-red-100 text-red-800',
          ]
        : ['Builds', 'bg-emerald-100 text-emerald-800']
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tone}`}>{text}</span>
}

export function ConfiguratorList() {
  const configurators = useApiQuery('listConfigurators', {})
  const queryClient = useQueryClient()
  const remove = useMutation({
    mutationFn: (configuratorId: string) => callApi('deleteConfigurator', { params: { configuratorId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: operationKey('listConfigurators') }),
  })

  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Configurators</h1>
        <p className="text-stone-600">
          Each configurator is one parametric product: its parametric model, renderer assets and the shops that embed
          it.
        </p>
      </div>
      <Card aria-labelledby="create-heading">
        <h2 id="create-heading" className="mb-4 text-base font-semibold">
          New configurator
        </h2>
        <CreateConfiguratorForm />
      </Card>
      <section aria-labelledby="list-heading" className="flex flex-col gap-3">
        <h2 id="list-heading" className="text-base font-semibold">
          Your configurators
        </h2>
        <ErrorMessage error={configurators.error ?? remove.error} />
        {configurators.isPending && <Spinner label="Loading configurators" />}
        {configurators.data?.length === 0 && (
          <p className="rounded-lg border border-dashed border-stone-300 bg-white px-6 py-10 text-center text-stone-600">
            No configurators yet. Name your first one above, then upload its model on the Files tab.
          </p>
        )}
        <ul className="grid gap-3 md:grid-cols-2">
          {configurators.data?.map((configurator) => (
            <li
              key={configurator.UUID}
              className="flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm"
            >
              <div className="flex flex-col gap-1">
                <Link
                  href={`/studio/configurators/${configurator.UUID}`}
                  className={`rounded-sm text-base font-semibold hover:underline ${FOCUS_RING}`}
                >
                  {configurator.name}
                </Link>
                {configurator.description && (
                  <p className="line-clamp-2 text-sm text-stone-600">{configurator.description}</p>
                )}
                <p className="text-xs text-stone-600">
                  {configurator.mainFile} · {configurator.cadType} {configurator.cadVersion} ·{' '}
                  {configurator.rendererType} · updated {configurator.updatedAt}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                {[
                  { label: 'Editor', href: `/studio/configurators/${configurator.UUID}/editor` },
                  { label: 'Files', href: `/studio/configurators/${configurator.UUID}/files` },
                  { label: 'Applications', href: `/studio/configurators/${configurator.UUID}/applications` },
                  { label: 'Customer page', href: `/configure/${configurator.UUID}` },
                ].map(({ label, href }) => (
                  <Link
                    key={label}
                    href={href}
                    className={`rounded-sm text-sm text-stone-700 underline-offset-2 hover:underline ${FOCUS_RING}`}
                  >
                    {label}
                  </Link>
                ))}
                <BuildState configuratorId={configurator.UUID} />
                <span className="ml-auto">
                  <ConfirmButton
                    label="Delete"
                    accessibleLabel={`Delete ${configurator.name}`}
                    question={`Delete ${configurator.name} with its files and applications?`}
                    onConfirm={() => remove.mutate(configurator.UUID)}
                    disabled={remove.isPending && remove.variables === configurator.UUID}
                  />
                </span>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}
