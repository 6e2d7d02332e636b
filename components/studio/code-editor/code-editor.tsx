'use client'

import { syntaxHighlighting } from '@codemirror/language'
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint'
import { search } from '@codemirror/search'
import { Compartment, EditorState, Prec, type Extension } from '@codemirror/state'
import { keymap } from '@codemirror/view'
import { basicSetup, EditorView } from 'codemirror'
import { useEffect, useRef } from 'react'
import type { LogDiagnostic } from '@/lib/cad/cad-system'
import { highlightStyle, languageFor } from '@/components/studio/code-editor/languages'

export interface CodeEditorProps {
  path: string
  value: string
  onChange: (text: string) => void
  onSave: () => void
  diagnostics: LogDiagnostic[]
  readOnly?: boolean
}

// Stone, as the studio around it.
const theme = EditorView.theme({
  '&': { flexGrow: '1', minHeight: '0', backgroundColor: '#ffffff' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'inherit', lineHeight: '1.6' },
  '.cm-gutters': { backgroundColor: '#f5f5f4', color: '#57534e', borderRight: '1px solid #e7e5e4' },
  '.cm-activeLineGutter': { backgroundColor: '#e7e5e4', color: '#1c1917' },
  '.cm-activeLine': { backgroundColor: '#fafaf9' },
})

function editable(readOnly: boolean): Extension {
  return [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]
}

/** The diagnostics on whole lines of `state`'s document, lines past its end on its last. */
function lintDiagnostics(state: EditorState, diagnostics: LogDiagnostic[]): Diagnostic[] {
  return diagnostics.map(({ line, severity, message }) => {
    const { from, to } = state.doc.line(Math.min(Math.max(1, line), state.doc.lines))
    return { from, to, severity, message }
  })
}

/** CodeMirror on one file: the OpenSCAD or JSON grammar by its name, the build's problems on their lines, Mod-s to save. */
export function CodeEditor({ path, value, onChange, onSave, diagnostics, readOnly = false }: CodeEditorProps) {
  const parent = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView>(null)
  const onChangeRef = useRef(onChange)
  const onSaveRef = useRef(onSave)
  const diagnosticsRef = useRef(diagnostics)
  const readOnlyRef = useRef(readOnly)
  const shownPath = useRef(path)
  const editability = useRef(new Compartment())

  useEffect(() => {
    onChangeRef.current = onChange
    onSaveRef.current = onSave
    diagnosticsRef.current = diagnostics
    readOnlyRef.current = readOnly
  })

  // A new state per file and per version loaded from elsewhere, so undo never crosses them.
  function createState(path: string, doc: string): EditorState {
    return EditorState.create({
      doc,
      extensions: [
        // Before the browser's save dialog.
        Prec.highest(keymap.of([{ key: 'Mod-s', preventDefault: true, run: save }])),
        basicSetup,
        search({ top: true }),
        lintGutter(),
        languageFor(path),
        syntaxHighlighting(highlightStyle),
        theme,
        editability.current.of(editable(readOnlyRef.current)),
        // An explicit tab stop: checkers (axe) do not count contenteditable as one, and the scroller needs one.
        EditorView.contentAttributes.of({ 'aria-label': `Source of ${path}`, tabindex: '0' }),
        // setState reports no update: only the user's changes reach onChange.
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChangeRef.current(update.state.doc.toString())
        }),
      ],
    })
  }

  function save(): boolean {
    onSaveRef.current()
    return true
  }

  function showDiagnostics(editor: EditorView) {
    editor.dispatch(setDiagnostics(editor.state, lintDiagnostics(editor.state, diagnosticsRef.current)))
  }

  useEffect(() => {
    const editor = new EditorView({ state: createState(path, value), parent: parent.current! })
    showDiagnostics(editor)
    view.current = editor
    return () => {
      editor.destroy()
      view.current = null
    }
    // Created once: the effects below follow the props (createState reads the callbacks through refs).
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new editor per render would lose the user's undo history
  }, [])

  // A value the editor's document does not hold came from elsewhere (the user's edits come back as the document).
  useEffect(() => {
    const editor = view.current
    if (!editor || (path === shownPath.current && value === editor.state.doc.toString())) return
    shownPath.current = path
    editor.setState(createState(path, value))
    showDiagnostics(editor)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- createState is made anew each render but reads only refs and its arguments
  }, [path, value])

  useEffect(() => {
    if (view.current) showDiagnostics(view.current)
  }, [diagnostics])

  useEffect(() => {
    view.current?.dispatch({ effects: editability.current.reconfigure(editable(readOnly)) })
  }, [readOnly])

  return (
    <div
      ref={parent}
      data-testid="code-editor"
      className="flex h-full min-h-96 flex-col overflow-hidden rounded-md border border-stone-300 bg-white font-mono text-sm focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-blue-700"
    />
  )
}
