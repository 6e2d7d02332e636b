'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { describeDomain } from '@/lib/applications/application-domain'
import { Button } from '@/components/ui/button'
import { ConfirmButton } from '@/components/ui/confirm-button'
import { CopyButton } from '@/components/ui/copy-button'
import { ErrorMessage } from '@/components/ui/error-message'
import { Spinner } from '@/components/ui/spinner'
import { WebhookPanel } from '@/components/studio/webhook-panel'
import { useApiQuery } from '@/components/use-api-query'
import { callApi, operationKey } from '@/lib/endpoints/client'

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}

function embedSnippet(origin: string, key: string, title: string): string {
  return `<iframe src="${origin}/embed/${encodeURIComponent(key)}" title="${escapeAttribute(title)}" style="width:100%;height:640px;border:0" allow="fullscreen"></iframe>`
}

function Credential({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <dt className="text-xs font-medium uppercase tracking-wide text-stone-600">{label}</dt>
      <dd className="flex flex-wrap items-center gap-2">
        {children ?? <code className="break-all rounded bg-stone-100 px-2 py-1 font-mono text-sm">{value}</code>}
        <CopyButton value={value} what={label} />
      </dd>
    </div>
  )
}

export function ApplicationDetails({
  configuratorId,
  applicationId,
  onDeleted,
}: {
  configuratorId: string
  applicationId: string
  onDeleted: () => void
}) {
  const queryClient = useQueryClient()
  const application = useApiQuery('getApplication', { params: { applicationId } })
  const configuratorName = useApiQuery('getConfigurator', { params: { configuratorId } }).data?.name
  const [isSecretShown, setIsSecretShown] = useState(false)
  const remove = useMutation({
    mutationFn: () => callApi('deleteApplication', { params: { applicationId } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({
        queryKey: operationKey('listApplications', { params: { configuratorId } }),
      })
      onDeleted()
    },
  })

  if (application.error) return <ErrorMessage error={application.error} />
  if (!application.data) return <Spinner label="Loading application" />
  const { UUID, name, domain, key, secretKey, secureInit, secureModel } = application.data
  const snippet = embedSnippet(window.location.origin, key, configuratorName ?? name)

  return (
    <section aria-labelledby="application-heading" className="flex flex-col gap-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="application-heading" className="text-lg font-semibold">
            {name}
          </h2>
          <p className="text-sm text-stone-600">
            {domain} · {secureInit ? 'secure start' : 'open start'} · {secureModel ? 'secure model' : 'open model'}
          </p>
        </div>
        <ConfirmButton
          label="Delete"
          accessibleLabel={`Delete application ${name}`}
          question={`Delete ${name}? Its keys stop working.`}
          onConfirm={() => remove.mutate()}
        />
      </div>
      <ErrorMessage error={remove.error} />
      <dl className="flex flex-col gap-4">
        <Credential label="Application UUID" value={UUID} />
        <Credential label="Key (X-API-KEY)" value={key} />
        <Credential label="Secret key" value={secretKey}>
          <code data-testid="secret-key" className="break-all rounded bg-stone-100 px-2 py-1 font-mono text-sm">
            {isSecretShown ? secretKey : '•'.repeat(24)}
          </code>
          <Button variant="secondary" onClick={() => setIsSecretShown((shown) => !shown)}>
            {isSecretShown ? 'Hide' : 'Reveal'}
          </Button>
        </Credential>
      </dl>
      <p className="text-xs text-stone-600">
        The secret key belongs on the shop's server only: with it the back end gets a server token. Never put it in a
        web page.
      </p>
      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">Embed in your shop</h3>
        <p className="text-sm text-stone-600">Paste this where the configurator should appear on {domain}.</p>
        <p data-testid="domain-rule" className="text-sm text-stone-600">
          {describeDomain(domain)}
        </p>
        <pre
          data-testid="embed-snippet"
          tabIndex={0}
          className="overflow-x-auto whitespace-pre-wrap break-all rounded-md bg-stone-900 p-3 font-mono text-xs text-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          {snippet}
        </pre>
        <div>
          <CopyButton value={snippet} what="embed snippet" />
        </div>
      </div>
      <WebhookPanel applicationId={applicationId} />
    </section>
  )
}
