'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { ZipPicker } from '@/components/studio/zip-picker'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { ErrorMessage } from '@/components/ui/error-message'
import { Field, Select } from '@/components/ui/field'
import { ApiError } from '@/lib/client/api-client'
import { callApiJson, operationKey } from '@/lib/endpoints/client'

/** A project zip in one step; when its main file is unclear, the server lists the candidates and the designer picks one. */
export function ArchiveUpload({ configuratorId }: { configuratorId: string }) {
  const queryClient = useQueryClient()
  const [replace, setReplace] = useState(false)
  const [pending, setPending] = useState<{ zip: File; candidates: string[] } | null>(null)
  const [choice, setChoice] = useState('')
  const upload = useMutation({
    mutationFn: ({ zip, mainFile }: { zip: File; mainFile?: string }) =>
      callApiJson('uploadConfiguratorArchive', {
        params: { configuratorId },
        query: { replace: replace ? 'true' : 'false', ...(mainFile && { mainFile }) },
        body: zip,
        headers: { 'content-type': 'application/zip' },
      }),
    onMutate: () => setPending(null),
    onError: (error, { zip }) => {
      if (error instanceof ApiError && error.code === 'conflict' && error.fields.length > 0) {
        setPending({ zip, candidates: error.fields.map((field) => field.message) })
        setChoice(error.fields[0]!.message)
      }
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: operationKey('getConfigurator', { params: { configuratorId } }) }),
  })
  const asksForMainFile = pending !== null

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-stone-700">
        A <span className="font-mono">.zip</span> of the project: its files go into{' '}
        <span className="font-mono">configurator/</span> with their folders, so includes and imports work as on the
        desktop.
      </p>
      <Checkbox
        label="Replace all model files"
        hint="Otherwise files of the same path are replaced and the others kept."
        checked={replace}
        onChange={(event) => setReplace(event.target.checked)}
      />
      <ZipPicker
        label="Upload a project .zip…"
        busyLabel="Unpacking…"
        isBusy={upload.isPending}
        inputLabel="Project archive to upload"
        onPick={(zip) => upload.mutate({ zip })}
      />
      {asksForMainFile && (
        <div
          className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-3"
          role="group"
          aria-label="Choose the main file"
        >
          <Field label="Main file" hint="The archive does not say which file is the model; choose it.">
            {(control) => (
              <Select {...control} value={choice} onChange={(event) => setChoice(event.target.value)}>
                {pending.candidates.map((candidate) => (
                  <option key={candidate}>{candidate}</option>
                ))}
              </Select>
            )}
          </Field>
          <Button onClick={() => upload.mutate({ zip: pending.zip, mainFile: choice })}>Use as main file</Button>
        </div>
      )}
      {!asksForMainFile && <ErrorMessage error={upload.error} />}
      {upload.data && (
        <p role="status" className="text-sm text-stone-700">
          Unpacked {upload.data.files.length} files; the main file is{' '}
          <span className="font-mono">{upload.data.mainFile}</span>.
        </p>
      )}
    </div>
  )
}
