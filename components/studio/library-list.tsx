'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { FontList } from '@/components/studio/font-list'
import { ZipPicker } from '@/components/studio/zip-picker'
import { Card } from '@/components/ui/card'
import { ConfirmButton } from '@/components/ui/confirm-button'
import { ErrorMessage } from '@/components/ui/error-message'
import { Field, Input } from '@/components/ui/field'
import { Spinner } from '@/components/ui/spinner'
import { useApiQuery } from '@/components/use-api-query'
import { LIBRARY_USES } from '@/lib/cad/engines'
import { callApi, callApiJson, operationKey } from '@/lib/endpoints/client'

const SIZE = new Intl.NumberFormat('en', { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 })

/** The installed libraries; an admin installs one from a release zip or removes one. */
export function LibraryList({ canManage }: { canManage: boolean }) {
  const queryClient = useQueryClient()
  const libraries = useApiQuery('listLibraries', {})
  const [name, setName] = useState('')
  const settle = { onSettled: () => queryClient.invalidateQueries({ queryKey: operationKey('listLibraries') }) }
  const install = useMutation({
    mutationFn: (zip: File) =>
      callApiJson('installLibrary', {
        query: name.trim() ? { name: name.trim() } : undefined,
        body: zip,
        headers: { 'content-type': 'application/zip' },
      }),
    onSuccess: () => setName(''),
    ...settle,
  })
  const remove = useMutation({
    mutationFn: (library: string) => callApi('removeLibrary', { params: { name: library } }),
    ...settle,
  })

  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Libraries and fonts</h1>
        <p className="text-stone-600">
          Installed once for every configurator: a model includes one by its name, as{' '}
          <span className="font-mono">{LIBRARY_USES}</span>.
        </p>
      </div>
      {canManage && (
        <Card aria-labelledby="install-heading">
          <h2 id="install-heading" className="mb-3 text-base font-semibold">
            Install a library
          </h2>
          <div className="flex flex-col gap-3">
            <Field label="Name" hint="Optional: by default the folder the zip holds, e.g. BOSL2 for BOSL2-master.">
              {(control) => (
                <Input
                  {...control}
                  value={name}
                  onChange={(event) => setName(event.target.value)}
                  placeholder="BOSL2"
                />
              )}
            </Field>
            <ZipPicker
              label="Upload a library .zip…"
              busyLabel="Installing…"
              isBusy={install.isPending}
              inputLabel="Library archive to install"
              onPick={(zip) => install.mutate(zip)}
            />
            {install.data && (
              <p role="status" className="text-sm text-stone-700">
                Installed {install.data.name} ({install.data.fileCount}{' '}
                {install.data.fileCount === 1 ? 'file' : 'files'}).
              </p>
            )}
            <ErrorMessage error={install.error} />
          </div>
        </Card>
      )}
      <section aria-labelledby="installed-heading" className="flex flex-col gap-3">
        <h2 id="installed-heading" className="text-base font-semibold">
          Installed
        </h2>
        <ErrorMessage error={libraries.error ?? remove.error} />
        {libraries.isPending && <Spinner label="Loading libraries" />}
        {libraries.data?.length === 0 && (
          <p className="text-sm text-stone-600">
            No libraries yet. BOSL2, MCAD and the Gridfinity libraries are the usual ones (where to get them: Shared
            libraries in docs/api.md).
          </p>
        )}
        {libraries.data && libraries.data.length > 0 && (
          <table className="w-full text-left text-sm">
            <thead className="text-stone-600">
              <tr>
                <th className="py-2 font-medium">Name</th>
                <th className="py-2 font-medium">Files</th>
                <th className="py-2 font-medium">Size</th>
                <th className="py-2 font-medium">Content hash (sha256)</th>
                {canManage && (
                  <th className="py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {libraries.data.map((library) => (
                <tr key={library.name} className="border-t border-stone-200">
                  <td className="py-2 font-mono">{library.name}</td>
                  <td className="py-2 tabular-nums">{library.fileCount}</td>
                  <td className="py-2 tabular-nums">{SIZE.format(library.sizeBytes / 1000)}</td>
                  <td className="py-2 font-mono text-xs" title={library.contentHash}>
                    {library.contentHash.slice(0, 16)}…
                  </td>
                  {canManage && (
                    <td className="py-2 text-right">
                      <ConfirmButton
                        label="Remove"
                        accessibleLabel={`Remove ${library.name}`}
                        question={`Remove ${library.name}?`}
                        onConfirm={() => remove.mutate(library.name)}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="fonts-heading" className="flex flex-col gap-3">
        <h2 id="fonts-heading" className="text-base font-semibold">
          Fonts
        </h2>
        <FontList />
      </section>
    </div>
  )
}
