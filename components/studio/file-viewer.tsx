'use client'

import { useQuery } from '@tanstack/react-query'
import { Button } from '@/components/ui/button'
import { ErrorMessage } from '@/components/ui/error-message'
import { Spinner } from '@/components/ui/spinner'
import { callApi, operationKey } from '@/lib/endpoints/client'

export function FileViewer({
  configuratorId,
  path,
  onClose,
}: {
  configuratorId: string
  path: string
  onClose: () => void
}) {
  const input = { params: { configuratorId, path: path.split('/') } }
  // Text, not JSON: under the files list's key, so an upload refreshes it too.
  const content = useQuery({
    queryKey: operationKey('getConfiguratorFile', input),
    queryFn: async () => (await callApi('getConfiguratorFile', input)).text(),
  })
  return (
    <section aria-label={`Contents of ${path}`} className="flex flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <h3 className="font-mono text-sm font-semibold">{path}</h3>
        <Button variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
      <ErrorMessage error={content.error} />
      {content.isPending && <Spinner label={`Loading ${path}`} />}
      {content.data !== undefined && (
        // Focusable so keyboard users can scroll it.
        <pre
          tabIndex={0}
          className="max-h-[32rem] overflow-auto rounded-md bg-stone-900 p-4 font-mono text-xs leading-relaxed text-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          {content.data || '(empty file)'}
        </pre>
      )}
    </section>
  )
}
