'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { ErrorMessage } from '@/components/ui/error-message'
import { Field, Input, Select } from '@/components/ui/field'
import { useApiQuery } from '@/components/use-api-query'
import { callApi, operationKey } from '@/lib/endpoints/client'

/** Copies a file from another of the designer's configurators; the server copies by reference, no download. */
export function CopyFileForm({ configuratorId }: { configuratorId: string }) {
  const queryClient = useQueryClient()
  const others = (useApiQuery('listConfigurators', {}).data ?? []).filter(
    (configurator) => configurator.UUID !== configuratorId,
  )
  const [sourceId, setSourceId] = useState<string | null>(null)
  const [sourcePath, setSourcePath] = useState('')
  const [targetPath, setTargetPath] = useState('')
  const sourceFiles = useApiQuery(
    'listConfiguratorFiles',
    { params: { configuratorId: sourceId ?? '' } },
    { enabled: sourceId !== null },
  )

  const copy = useMutation({
    mutationFn: () =>
      callApi('uploadConfiguratorFile', {
        params: { configuratorId, path: targetPath.split('/') },
        headers: { 'service-copy-source': `configurators/${sourceId}/files/${sourcePath}` },
      }),
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: operationKey('listConfiguratorFiles', { params: { configuratorId } }),
      }),
  })

  if (others.length === 0)
    return <p className="text-sm text-stone-600">Once you have another configurator, you can copy its files here.</p>

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    copy.mutate()
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <Field label="From configurator">
        {(control) => (
          <Select
            {...control}
            value={sourceId ?? ''}
            onChange={(event) => {
              copy.reset()
              setSourceId(event.target.value || null)
              setSourcePath('')
              setTargetPath('')
            }}
          >
            <option value="">Choose a configurator</option>
            {others.map((configurator) => (
              <option key={configurator.UUID} value={configurator.UUID}>
                {configurator.name}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="File">
        {(control) => (
          <Select
            {...control}
            value={sourcePath}
            disabled={!sourceFiles.data}
            onChange={(event) => {
              copy.reset()
              setSourcePath(event.target.value)
              setTargetPath(event.target.value)
            }}
          >
            <option value="">{sourceFiles.data?.length === 0 ? 'It has no files' : 'Choose a file'}</option>
            {sourceFiles.data?.map((file) => (
              <option key={file.path}>{file.path}</option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Copy to" hint="configurator/… or renderer/… in this configurator">
        {(control) => (
          <Input {...control} value={targetPath} onChange={(event) => setTargetPath(event.target.value)} required />
        )}
      </Field>
      <ErrorMessage error={sourceFiles.error ?? copy.error} />
      <div className="flex items-center gap-4">
        <Button type="submit" variant="secondary" disabled={!sourcePath || !targetPath || copy.isPending}>
          {copy.isPending ? 'Copying…' : 'Copy file'}
        </Button>
        <p role="status" className="text-sm text-green-800">
          {copy.isSuccess ? `Copied to ${targetPath}` : ''}
        </p>
      </div>
    </form>
  )
}
