'use client'

import { Button, FOCUS_RING } from '@/components/ui/button'
import { ConfirmButton } from '@/components/ui/confirm-button'
import { isTextFile } from '@/components/studio/text-file'
import type { OperationResult } from '@/lib/endpoints/client'

export type ConfiguratorFile = OperationResult<'listConfiguratorFiles'>[number]

interface Folder {
  folders: Map<string, Folder>
  files: { name: string; file: ConfiguratorFile }[]
}

function buildTree(files: ConfiguratorFile[], root: string): Folder {
  const tree: Folder = { folders: new Map(), files: [] }
  for (const file of files) {
    const [top, ...segments] = file.path.split('/')
    if (top !== root) continue
    let folder = tree
    for (const segment of segments.slice(0, -1)) {
      let child = folder.folders.get(segment)
      if (!child) folder.folders.set(segment, (child = { folders: new Map(), files: [] }))
      folder = child
    }
    folder.files.push({ name: segments.at(-1) ?? '', file })
  }
  return tree
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

interface FileTreeProps {
  root: 'configurator' | 'renderer'
  files: ConfiguratorFile[]
  onView: (file: ConfiguratorFile) => void
  onDelete: (file: ConfiguratorFile) => void
  emptyHint: string
  /** What opening a text file does: View (the Files page), Edit (the editor). */
  viewLabel?: string
  onRename?: (file: ConfiguratorFile) => void
  /** The file open beside the tree. */
  openPath?: string | null
}

type ItemActions = Pick<FileTreeProps, 'onView' | 'onDelete' | 'viewLabel' | 'onRename' | 'openPath'>

export function FileTree({ root, files, emptyHint, ...actions }: FileTreeProps) {
  const tree = buildTree(files, root)
  if (tree.files.length === 0 && tree.folders.size === 0) {
    return (
      <p className="rounded-md border border-dashed border-stone-300 px-4 py-6 text-center text-sm text-stone-600">
        {emptyHint}
      </p>
    )
  }
  return <FolderList folder={tree} {...actions} />
}

function FolderList({ folder, ...actions }: { folder: Folder } & ItemActions) {
  const { onView, onDelete, viewLabel = 'View', onRename, openPath } = actions
  const folders = [...folder.folders].sort(([a], [b]) => a.localeCompare(b))
  const files = [...folder.files].sort((a, b) => a.name.localeCompare(b.name))
  return (
    <ul className="flex flex-col gap-1">
      {folders.map(([name, child]) => (
        <li key={name} className="flex flex-col gap-1">
          <span className="flex items-center gap-1 text-sm font-medium text-stone-800">
            <span aria-hidden>▸</span>
            <span>{name}/</span>
          </span>
          <div className="border-l border-stone-200 pl-4">
            <FolderList folder={child} {...actions} />
          </div>
        </li>
      ))}
      {files.map(({ name, file }) => (
        <li
          key={file.path}
          aria-current={file.path === openPath ? 'true' : undefined}
          className="flex flex-wrap items-center gap-3 rounded-md px-2 py-1 hover:bg-stone-50 aria-[current=true]:bg-stone-100"
        >
          {isTextFile(file.contentType) ? (
            <button
              type="button"
              onClick={() => onView(file)}
              className={`rounded-sm font-mono text-sm text-stone-900 hover:underline ${FOCUS_RING}`}
            >
              {name}
            </button>
          ) : (
            <span className="font-mono text-sm text-stone-900">{name}</span>
          )}
          <span className="text-xs text-stone-600">
            {formatSize(file.size)} · {file.updatedAt}
          </span>
          <span className="ml-auto flex flex-wrap items-center gap-2">
            {isTextFile(file.contentType) && (
              <Button variant="ghost" aria-label={`${viewLabel} ${file.path}`} onClick={() => onView(file)}>
                {viewLabel}
              </Button>
            )}
            {onRename && (
              <Button variant="ghost" aria-label={`Rename ${file.path}`} onClick={() => onRename(file)}>
                Rename
              </Button>
            )}
            <ConfirmButton
              label="Delete"
              accessibleLabel={`Delete ${file.path}`}
              question={`Delete ${file.path}?`}
              onConfirm={() => onDelete(file)}
            />
          </span>
        </li>
      ))}
    </ul>
  )
}
