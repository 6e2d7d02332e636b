'use client'

import { useQueryClient } from '@tanstack/react-query'
import { useRef, useState, type DragEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Field, Input, Select } from '@/components/ui/field'
import { ApiError } from '@/lib/client/api-client'
import { uploadFile } from '@/components/studio/upload-file'
import { operationKey, operationPath } from '@/lib/endpoints/client'

interface Upload {
  id: number
  path: string
  progress: number
  isDone: boolean
  error: string | null
}

export function FileUpload({ configuratorId }: { configuratorId: string }) {
  const queryClient = useQueryClient()
  const [root, setRoot] = useState<'configurator' | 'renderer'>('configurator')
  const [folder, setFolder] = useState('')
  const [uploads, setUploads] = useState<Upload[]>([])
  const [isDragging, setIsDragging] = useState(false)
  const picker = useRef<HTMLInputElement>(null)
  const nextId = useRef(0)

  function patch(id: number, change: Partial<Upload>) {
    setUploads((current) => current.map((upload) => (upload.id === id ? { ...upload, ...change } : upload)))
  }

  const directory = folder.split('/').filter(Boolean).join('/')
  const target = [root, directory].filter(Boolean).join('/')

  function start(files: FileList | null) {
    for (const file of Array.from(files ?? [])) {
      const upload = { id: nextId.current++, path: `${target}/${file.name}`, progress: 0, isDone: false, error: null }
      setUploads((current) => [upload, ...current])
      uploadFile(
        operationPath('uploadConfiguratorFile', { params: { configuratorId, path: upload.path.split('/') } }),
        file,
        (progress) => patch(upload.id, { progress }),
      )
        .then(() => patch(upload.id, { isDone: true }))
        .catch((error: unknown) =>
          patch(upload.id, { error: error instanceof ApiError ? error.message : 'The upload failed' }),
        )
        .finally(() =>
          queryClient.invalidateQueries({
            queryKey: operationKey('listConfiguratorFiles', { params: { configuratorId } }),
          }),
        )
    }
  }

  function drop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault()
    setIsDragging(false)
    start(event.dataTransfer.files)
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Upload into">
          {(control) => (
            <Select
              {...control}
              value={root}
              onChange={(event) => setRoot(event.target.value === 'renderer' ? 'renderer' : 'configurator')}
            >
              <option value="configurator">configurator/ (model)</option>
              <option value="renderer">renderer/ (scene, shaders)</option>
            </Select>
          )}
        </Field>
        <Field label="Folder" hint="Optional, e.g. lib or shaders">
          {(control) => (
            <Input
              {...control}
              value={folder}
              onChange={(event) => setFolder(event.target.value)}
              placeholder="(top level)"
            />
          )}
        </Field>
      </div>
      <div
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault()
          setIsDragging(true)
        }}
        onDragLeave={() => setIsDragging(false)}
        onDrop={drop}
        className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-6 py-8 text-center transition-colors ${
          isDragging ? 'border-blue-700 bg-blue-50' : 'border-stone-300 bg-stone-50'
        }`}
      >
        <p className="text-sm text-stone-700">
          Drop files here to upload them into <span className="font-mono">{target}/</span>
        </p>
        <Button variant="secondary" onClick={() => picker.current?.click()}>
          Choose files…
        </Button>
        <input
          ref={picker}
          type="file"
          multiple
          tabIndex={-1}
          aria-label="Files to upload"
          className="sr-only"
          onChange={(event) => {
            start(event.target.files)
            event.target.value = ''
          }}
        />
      </div>
      {uploads.length > 0 && (
        <ul aria-label="Uploads" className="flex flex-col gap-2">
          {uploads.map((upload) => (
            <li key={upload.id} className="flex flex-col gap-1">
              <div className="flex justify-between gap-2 text-sm">
                <span className="font-mono">{upload.path}</span>
                <span className={upload.error ? 'text-red-700' : 'text-stone-600'}>
                  {upload.error ? 'Failed' : upload.isDone ? 'Uploaded' : `${Math.round(upload.progress * 100)}%`}
                </span>
              </div>
              <progress
                aria-label={`Upload of ${upload.path}`}
                value={upload.progress}
                max={1}
                className="h-2 w-full overflow-hidden rounded-full [&::-webkit-progress-bar]:bg-stone-200 [&::-webkit-progress-value]:bg-stone-900 [&::-moz-progress-bar]:bg-stone-900"
              />
              {upload.error && (
                <p role="alert" className="text-xs font-medium text-red-700">
                  {upload.error}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
