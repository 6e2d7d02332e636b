'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { ArchiveUpload } from '@/components/studio/archive-upload'
import { CopyFileForm } from '@/components/studio/copy-file-form'
import { FileTree, type ConfiguratorFile } from '@/components/studio/file-tree'
import { FileUpload } from '@/components/studio/file-upload'
import { FileViewer } from '@/components/studio/file-viewer'
import { FontList } from '@/components/studio/font-list'
import { PreparationStatus } from '@/components/studio/preparation-status'
import { Card } from '@/components/ui/card'
import { ErrorMessage } from '@/components/ui/error-message'
import { Spinner } from '@/components/ui/spinner'
import { useApiQuery } from '@/components/use-api-query'
import { callApi, operationKey } from '@/lib/endpoints/client'

const TREES = [
  {
    root: 'configurator',
    title: 'Model',
    emptyHint: 'No model files yet. Upload the main file and anything it includes.',
  },
  {
    root: 'renderer',
    title: 'Renderer',
    emptyHint: 'No renderer files. Add scene.json, shaders or textures to style the viewer.',
  },
] as const

export function FileManager({ configuratorId }: { configuratorId: string }) {
  const queryClient = useQueryClient()
  const files = useApiQuery('listConfiguratorFiles', { params: { configuratorId } })
  const [viewedPath, setViewedPath] = useState<string | null>(null)
  const remove = useMutation({
    mutationFn: (file: ConfiguratorFile) =>
      callApi('deleteConfiguratorFile', { params: { configuratorId, path: file.path.split('/') } }),
    onSuccess: (_response, file) => {
      if (file.path === viewedPath) setViewedPath(null)
    },
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: operationKey('listConfiguratorFiles', { params: { configuratorId } }),
      }),
  })

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="flex flex-col gap-6">
        <ErrorMessage error={files.error ?? remove.error} />
        <PreparationStatus configuratorId={configuratorId} />
        {files.isPending && <Spinner label="Loading files" />}
        {files.data &&
          TREES.map((tree) => (
            <Card key={tree.root} aria-labelledby={`tree-${tree.root}`}>
              <h2 id={`tree-${tree.root}`} className="mb-3 text-base font-semibold">
                {tree.title} <span className="font-mono text-sm font-normal text-stone-600">{tree.root}/</span>
              </h2>
              <FileTree
                root={tree.root}
                files={files.data}
                emptyHint={tree.emptyHint}
                onView={(file) => setViewedPath(file.path)}
                onDelete={(file) => remove.mutate(file)}
              />
            </Card>
          ))}
        {viewedPath && (
          <Card>
            <FileViewer configuratorId={configuratorId} path={viewedPath} onClose={() => setViewedPath(null)} />
          </Card>
        )}
      </div>
      <div className="flex flex-col gap-6">
        <Card aria-labelledby="upload-heading">
          <h2 id="upload-heading" className="mb-3 text-base font-semibold">
            Upload files
          </h2>
          <FileUpload configuratorId={configuratorId} />
        </Card>
        <Card aria-labelledby="archive-heading">
          <h2 id="archive-heading" className="mb-3 text-base font-semibold">
            Upload a project
          </h2>
          <ArchiveUpload configuratorId={configuratorId} />
        </Card>
        <Card aria-labelledby="fonts-heading">
          <h2 id="fonts-heading" className="mb-3 text-base font-semibold">
            Fonts
          </h2>
          <FontList configuratorId={configuratorId} />
        </Card>
        <Card aria-labelledby="copy-heading">
          <h2 id="copy-heading" className="mb-3 text-base font-semibold">
            Copy from another configurator
          </h2>
          <CopyFileForm configuratorId={configuratorId} />
        </Card>
      </div>
    </div>
  )
}
