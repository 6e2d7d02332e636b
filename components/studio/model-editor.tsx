'use client'

import { useQueryClient } from '@tanstack/react-query'
import dynamic from 'next/dynamic'
import Link from 'next/link'
import { type FormEvent, useCallback, useMemo, useState } from 'react'
import { Configurator } from '@/components/configurator/configurator'
import type { SessionLog } from '@/components/configurator/use-config-session'
import { cadSystem } from '@/lib/cad/engines'
import { FileTree, type ConfiguratorFile } from '@/components/studio/file-tree'
import { useDraftFile, type SaveState } from '@/components/studio/use-draft-file'
import { Button, FOCUS_RING } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { ErrorMessage } from '@/components/ui/error-message'
import { Input } from '@/components/ui/field'
import { Spinner } from '@/components/ui/spinner'
import { useApiQuery } from '@/components/use-api-query'
import { callApi, operationKey } from '@/lib/endpoints/client'

// CodeMirror reads the DOM as it loads: in the browser only.
const CodeEditor = dynamic(
  () => import('@/components/studio/code-editor/code-editor').then((module) => module.CodeEditor),
  {
    ssr: false,
    loading: () => <Spinner label="Loading the editor" />,
  },
)

const ROOT = 'configurator/'
const TREES = [
  { root: 'configurator', emptyHint: 'No model files yet.' },
  { root: 'renderer', emptyHint: 'No renderer files.' },
] as const

/**
 * The designer's loop: the draft's files in a code editor, saved after a pause in typing, and the
 * draft built beside them as customers will get it, with the log's problems on their lines.
 */
interface ModelEditorProps {
  configuratorId: string
  productName: string
  cadType: string
}

export function ModelEditor({ configuratorId, productName, cadType }: ModelEditorProps) {
  const queryClient = useQueryClient()
  const configurator = useApiQuery('getConfigurator', { params: { configuratorId } })
  const files = useApiQuery('listConfiguratorFiles', { params: { configuratorId } })
  const releases = useApiQuery('listReleases', { params: { configuratorId } })
  const customersGet = releases.data?.find((release) => release.current)
  const [chosenPath, setChosenPath] = useState<string | null>(null)
  const path = chosenPath ?? (configurator.data ? ROOT + configurator.data.mainFile : null)
  const [sourceVersion, setSourceVersion] = useState(0)
  const [log, setLog] = useState<SessionLog | null>(null)
  const [treeError, setTreeError] = useState<unknown>(null)

  const refreshFiles = useCallback(
    () =>
      queryClient.invalidateQueries({
        queryKey: operationKey('listConfiguratorFiles', { params: { configuratorId } }),
      }),
    [queryClient, configuratorId],
  )
  const draftChanged = useCallback(() => {
    setSourceVersion((version) => version + 1)
    void refreshFiles()
  }, [refreshFiles])
  const file = useDraftFile(configuratorId, path, draftChanged)
  const system = cadSystem(cadType)
  const diagnostics = useMemo(
    () => (log && path ? system.diagnostics(`${log.error}\n${log.message}`, path) : []),
    [log, path, system],
  )

  /** Runs a change of the tree, then shows the draft it made; its error stays beside the tree. */
  const changeTree = async (change: () => Promise<void>) => {
    setTreeError(null)
    try {
      await change()
      draftChanged()
    } catch (error) {
      setTreeError(error)
    }
  }
  /** Opens the file; the one open already is loaded again only when it could not be (it was missing). */
  const open = (openedPath: string) => {
    setChosenPath(openedPath)
    if (openedPath === path && file.loadError) file.reopen()
  }
  const fileParams = (filePath: string) => ({ configuratorId, path: filePath.split('/') })
  const createFile = (newPath: string) =>
    changeTree(async () => {
      if (files.data?.some((existing) => existing.path === newPath)) throw new Error(`${newPath} exists already`)
      await callApi('uploadConfiguratorFile', { params: fileParams(newPath), body: '' })
      open(newPath)
    })
  const renameFile = (from: ConfiguratorFile, to: string) =>
    changeTree(async () => {
      if (files.data?.some((existing) => existing.path === to)) throw new Error(`${to} exists already`)
      await callApi('uploadConfiguratorFile', {
        params: fileParams(to),
        headers: { 'service-copy-source': `configurators/${configuratorId}/files/${from.path}` },
      })
      await callApi('deleteConfiguratorFile', { params: fileParams(from.path) })
      // The main file keeps its role under its new name.
      if (configurator.data && from.path === ROOT + configurator.data.mainFile && to.startsWith(ROOT)) {
        await callApi('updateConfigurator', { params: { configuratorId }, json: { mainFile: to.slice(ROOT.length) } })
        await queryClient.invalidateQueries({
          queryKey: operationKey('getConfigurator', { params: { configuratorId } }),
        })
      }
      if (from.path === path) setChosenPath(to)
    })
  const deleteFile = (deleted: ConfiguratorFile) =>
    changeTree(async () => {
      await callApi('deleteConfiguratorFile', { params: fileParams(deleted.path) })
      if (deleted.path === path) setChosenPath(null)
    })

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4 xl:grid-cols-[12rem_minmax(0,5fr)_minmax(0,3fr)]">
      <Card aria-labelledby="draft-files" className="flex flex-col gap-3 self-start">
        <h2 id="draft-files" className="text-base font-semibold">
          Draft files
        </h2>
        {releases.data?.length === 0 && (
          <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
            Not published yet: every save reaches new sessions at once.{' '}
            <Link href={`/studio/configurators/${configuratorId}/releases`} className={`underline ${FOCUS_RING}`}>
              Publish a release
            </Link>{' '}
            to keep customers on it while you edit.
          </p>
        )}
        {customersGet !== undefined && (
          <p className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-950">
            Customers get release {customersGet.number}; your saves stay in the draft until you{' '}
            <Link href={`/studio/configurators/${configuratorId}/releases`} className={`underline ${FOCUS_RING}`}>
              publish
            </Link>{' '}
            the next.
          </p>
        )}
        <ErrorMessage error={files.error ?? treeError} />
        {files.data &&
          TREES.map(({ root, emptyHint }) => (
            <section key={root} aria-label={`${root}/`} className="flex flex-col gap-1">
              <h3 className="font-mono text-xs text-stone-600">{root}/</h3>
              <FileTree
                root={root}
                files={files.data}
                emptyHint={emptyHint}
                viewLabel="Edit"
                openPath={path}
                onView={(opened) => open(opened.path)}
                onDelete={(deleted) => void deleteFile(deleted)}
                onRename={(renamed) => {
                  const to = window.prompt(`Rename ${renamed.path} to`, renamed.path)
                  if (to && to !== renamed.path) void renameFile(renamed, to)
                }}
              />
            </section>
          ))}
        <NewFileForm onCreate={(newPath) => void createFile(newPath)} extension={system.sourceExtensions[0]!} />
      </Card>
      <section aria-label="Editor" className="flex min-h-[36rem] min-w-0 flex-col gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="font-mono text-sm font-semibold">{path}</h2>
          <SaveStatus saveState={file.saveState} onTakeTheirs={file.takeTheirs} onKeepMine={file.keepMine} />
        </div>
        <ErrorMessage error={file.loadError} />
        {path && file.loaded?.path === path ? (
          <CodeEditor
            path={path}
            value={file.text}
            onChange={file.edit}
            onSave={file.saveNow}
            diagnostics={diagnostics}
          />
        ) : (
          !file.loadError && <Spinner label={`Loading ${path ?? 'the main file'}`} />
        )}
        <p role="status" aria-label="Problems in this file" className="text-sm text-stone-700">
          {problemSummary(diagnostics)}
        </p>
      </section>
      <section
        aria-label="Preview of the draft"
        className="flex h-[80vh] min-h-[36rem] flex-col overflow-y-auto rounded-lg border border-stone-200 bg-white"
      >
        <Configurator
          configuratorId={configuratorId}
          auth={{ kind: 'cookie' }}
          initialQuery=""
          canDownloadFinal={false}
          productName={productName}
          cadType={cadType}
          preview={{ draft: true, sourceVersion: String(sourceVersion) }}
          onLog={setLog}
          header={
            <p className="text-sm text-stone-600">
              The draft, built as you type. Customers get it once you publish it.
            </p>
          }
        />
      </section>
    </div>
  )
}

function problemSummary(diagnostics: { severity: 'error' | 'warning' }[]): string {
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length
  const warnings = diagnostics.length - errors
  if (diagnostics.length === 0) return 'No problems in this file.'
  return (
    [
      errors > 0 && `${errors} ${errors === 1 ? 'error' : 'errors'}`,
      warnings > 0 && `${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`,
    ]
      .filter(Boolean)
      .join(' and ') + ' in this file.'
  )
}

function SaveStatus({
  saveState,
  onTakeTheirs,
  onKeepMine,
}: {
  saveState: SaveState
  onTakeTheirs: () => void
  onKeepMine: () => void
}) {
  if (saveState.state === 'conflict') {
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
      >
        <span>This file was saved elsewhere since you opened it: nothing of yours was saved.</span>
        <Button variant="secondary" onClick={onTakeTheirs}>
          Load the newer version
        </Button>
        <Button variant="secondary" onClick={onKeepMine}>
          Save mine over it
        </Button>
        <details className="w-full">
          <summary className="cursor-pointer">The newer version</summary>
          <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap font-mono text-xs">
            {saveState.theirs.text}
          </pre>
        </details>
      </div>
    )
  }
  if (saveState.state === 'failed') return <ErrorMessage error={saveState.error} />
  const text = { saved: 'Saved', unsaved: 'Unsaved changes', saving: 'Saving…' }[saveState.state]
  return (
    <p role="status" aria-label="Save state" className="text-sm text-stone-600">
      {text}
    </p>
  )
}

function NewFileForm({ onCreate, extension }: { onCreate: (path: string) => void; extension: string }) {
  const [name, setName] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const trimmed = name.trim()
    if (!trimmed) return
    onCreate(trimmed.startsWith(ROOT) || trimmed.startsWith('renderer/') ? trimmed : ROOT + trimmed)
    setName('')
  }
  return (
    <form onSubmit={submit} className="flex gap-2" aria-label="New file">
      <Input
        aria-label="New file name"
        placeholder={`parts/lid${extension}`}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <Button type="submit" variant="secondary">
        New
      </Button>
    </form>
  )
}
