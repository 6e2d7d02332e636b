'use client'

import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError } from '@/lib/client/api-client'
import { callApi } from '@/lib/endpoints/client'

/** A pause in typing this long saves the file, and so builds the draft. */
export const AUTOSAVE_MS = 800

export type SaveState =
  | { state: 'saved' | 'unsaved' | 'saving' }
  /** Another tab or person saved the file since it was loaded: `theirs` is their version. */
  | { state: 'conflict'; theirs: LoadedFile }
  | { state: 'failed'; error: unknown }

interface LoadedFile {
  text: string
  /** The ETag of the version, which a save names in If-Match. */
  etag: string
}

async function readFile(configuratorId: string, path: string): Promise<LoadedFile> {
  const response = await callApi('getConfiguratorFile', { params: { configuratorId, path: path.split('/') } })
  return { text: await response.text(), etag: response.headers.get('etag') ?? '' }
}

/**
 * One file of the configurator's draft in the editor: loaded with its version, saved after a pause
 * in typing and at once on `saveNow`, each save only over the version it was based on. A save
 * that finds a newer version saves nothing and offers it (`conflict`): neither edit is lost.
 */
export function useDraftFile(configuratorId: string, path: string | null, onSaved: () => void) {
  const [loaded, setLoaded] = useState<(LoadedFile & { path: string }) | null>(null)
  const [text, setText] = useState('')
  const [saveState, setSaveState] = useState<SaveState>({ state: 'saved' })
  const [loadError, setLoadError] = useState<unknown>(null)
  /** Counts asks to load the file again at the same path (a file made where one was missing). */
  const [openings, setOpenings] = useState(0)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const latest = useRef({ path, text, loaded, onSaved, saveState })
  latest.current = { path, text, loaded, onSaved, saveState }

  /** Saves the editor's text over `base` (the version loaded, or theirs when the designer keeps their own edit over it). */
  const save = useCallback(
    async (base?: LoadedFile) => {
      if (timer.current) clearTimeout(timer.current)
      timer.current = null
      const { text: sent, loaded: file } = latest.current
      if (!file) return
      const etag = (base ?? file).etag
      if (!base && sent === file.text) return setSaveState({ state: 'saved' })
      setSaveState({ state: 'saving' })
      // The file may be left while its save travels: its answer then changes nothing shown.
      const isShown = () => latest.current.path === file.path
      try {
        const response = await callApi('uploadConfiguratorFile', {
          params: { configuratorId, path: file.path.split('/') },
          body: sent,
          headers: { 'if-match': etag },
        })
        latest.current.onSaved()
        if (!isShown()) return
        setLoaded({ path: file.path, text: sent, etag: response.headers.get('etag') ?? '' })
        setSaveState({ state: latest.current.text === sent ? 'saved' : 'unsaved' })
      } catch (error) {
        const isConflict = error instanceof ApiError && error.status === 409
        if (!isShown()) {
          const why = isConflict ? 'it was saved elsewhere since you opened it' : (error as Error).message
          return setSaveState({
            state: 'failed',
            error: new Error(`Your last edit of ${file.path} was not saved: ${why}. Open it again to redo it.`),
          })
        }
        const theirs = isConflict ? await readFile(configuratorId, file.path).catch(() => null) : null
        setSaveState(theirs ? { state: 'conflict', theirs } : { state: 'failed', error })
      }
    },
    [configuratorId],
  )

  const edit = useCallback(
    (next: string) => {
      setText(next)
      setSaveState((current) => (current.state === 'conflict' ? current : { state: 'unsaved' }))
      if (timer.current) clearTimeout(timer.current)
      // A conflict waits for the designer's choice.
      timer.current = setTimeout(() => latest.current.saveState.state !== 'conflict' && void save(), AUTOSAVE_MS)
    },
    [save],
  )

  /** Takes their version into the editor, dropping the unsaved edit. */
  const takeTheirs = useCallback(() => {
    if (saveState.state !== 'conflict' || !loaded) return
    setLoaded({ path: loaded.path, ...saveState.theirs })
    setText(saveState.theirs.text)
    setSaveState({ state: 'saved' })
    onSaved()
  }, [saveState, loaded, onSaved])

  /** Saves the editor's text over their version, on purpose. */
  const keepMine = useCallback(() => {
    if (saveState.state === 'conflict') void save(saveState.theirs)
  }, [saveState, save])

  // Leaving a file (opening another) saves its pending edit first.
  useEffect(() => {
    if (timer.current) void save()
    setLoaded(null)
    setLoadError(null)
    if (path === null) return
    let isCurrent = true
    readFile(configuratorId, path).then(
      (file) => {
        if (!isCurrent) return
        setLoaded({ ...file, path })
        setText(file.text)
        setSaveState({ state: 'saved' })
      },
      (error: unknown) => isCurrent && setLoadError(error),
    )
    return () => {
      isCurrent = false
    }
  }, [configuratorId, path, save, openings])

  // Closing the page saves a pending edit too.
  const saveRef = useRef(save)
  saveRef.current = save
  useEffect(
    () => () => {
      if (timer.current) void saveRef.current()
    },
    [],
  )

  const reopen = useCallback(() => setOpenings((count) => count + 1), [])

  return { loaded, text, saveState, loadError, edit, saveNow: () => void save(), takeTheirs, keepMine, reopen }
}
