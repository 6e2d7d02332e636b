'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { CopyButton } from '@/components/ui/copy-button'
import { ErrorMessage } from '@/components/ui/error-message'
import { Field, Input } from '@/components/ui/field'
import { useApiQuery } from '@/components/use-api-query'
import { ApiError } from '@/lib/client/api-client'
import { callApi, callApiJson, operationKey } from '@/lib/endpoints/client'

const REFRESH_MS = 3000

/** The application's webhook: where snapshot events go, the secret to verify them, and how each delivery went. */
export function WebhookPanel({ applicationId }: { applicationId: string }) {
  const queryClient = useQueryClient()
  const input = { params: { applicationId } }
  const webhook = useApiQuery('getWebhook', input)
  const deliveries = useApiQuery('listWebhookDeliveries', input, {
    refetchInterval: (query) =>
      query.state.data?.some((delivery) => delivery.status === 'pending') ? REFRESH_MS : false,
  })
  const [url, setUrl] = useState<string | null>(null)
  // The webhook's key is a prefix of its deliveries'.
  const refresh = () => queryClient.invalidateQueries({ queryKey: operationKey('getWebhook', input) })
  const save = useMutation({
    mutationFn: (next: string) => callApiJson('setWebhook', { ...input, json: { url: next } }),
    onSuccess: () => setUrl(null),
    onSettled: refresh,
  })
  const remove = useMutation({ mutationFn: () => callApi('deleteWebhook', input), onSettled: refresh })

  const current = webhook.data
  const shown = url ?? current?.url ?? ''
  const urlError =
    save.error instanceof ApiError ? save.error.fields.find((field) => field.path[0] === 'url')?.message : undefined
  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate(shown.trim())
  }

  return (
    <div className="flex flex-col gap-3">
      <h3 className="text-sm font-semibold">Webhook</h3>
      <p className="text-sm text-stone-600">
        Your shop's back end hears of each snapshot (an order) here, as a signed POST (Standard Webhooks), retried until
        it answers 2xx.
      </p>
      <ErrorMessage error={webhook.error} />
      <form onSubmit={submit} className="flex flex-col gap-2">
        <Field label="Webhook URL" error={urlError} hint="https://shop.example.com/paraform-webhook">
          {(control) => (
            <Input
              {...control}
              type="url"
              value={shown}
              onChange={(event) => setUrl(event.target.value)}
              placeholder="https://"
            />
          )}
        </Field>
        <div className="flex gap-2">
          <Button type="submit" disabled={save.isPending || shown.trim() === ''}>
            Save webhook
          </Button>
          {current?.url && (
            <Button type="button" variant="ghost" onClick={() => remove.mutate()}>
              Remove
            </Button>
          )}
        </div>
        {!urlError && <ErrorMessage error={save.error ?? remove.error} />}
      </form>
      {current?.secret && (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium">Signing secret</span>
          <code className="rounded bg-stone-100 px-2 py-1 font-mono text-xs">{current.secret.slice(0, 10)}…</code>
          <CopyButton value={current.secret} what="webhook signing secret" />
        </div>
      )}
      {deliveries.data && deliveries.data.length > 0 && (
        <table className="w-full text-left text-sm" aria-label="Webhook deliveries">
          <thead className="text-xs uppercase text-stone-600">
            <tr>
              <th className="py-1">Event</th>
              <th>Status</th>
              <th>Attempts</th>
              <th>Last answer</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.map((delivery) => (
              <tr key={delivery.id} className="border-t border-stone-200 align-top">
                <td className="py-1">
                  {delivery.eventType}
                  <div className="text-xs text-stone-500">{delivery.createdAt}</div>
                </td>
                <td>{delivery.status}</td>
                <td>{delivery.attempts}</td>
                <td className="break-all">
                  {delivery.lastStatus === null ? '—' : `HTTP ${delivery.lastStatus}`}
                  {delivery.lastResponse && (
                    <div className="text-xs text-stone-500">{delivery.lastResponse.slice(0, 120)}</div>
                  )}
                  {delivery.nextAttemptAt && (
                    <div className="text-xs text-stone-500">next try {delivery.nextAttemptAt}</div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}
