'use client'

import { useCallback, useEffect, useRef, useState } from 'react'
import type { Values } from '@/components/configurator/share-values'
import type { ParameterSet } from '@/lib/sessions/schemas'

/**
 * Undo over the values the server stored: each new set of values (a change, a preset, a reset)
 * keeps the one before it; `undo` sets that again. Ctrl/Cmd+Z does it too, except in a text
 * field, where it undoes the typing as browsers do.
 */
export function useUndo(parameters: ParameterSet | null, setValues: (values: Values) => void) {
  const history = useRef<Values[]>([])
  const current = useRef<Values | null>(null)
  const isUndoing = useRef(false)
  const [canUndo, setCanUndo] = useState(false)

  useEffect(() => {
    if (!parameters) return
    const values = Object.fromEntries(Object.entries(parameters).map(([key, parameter]) => [key, parameter.value]))
    if (current.current && !isUndoing.current && JSON.stringify(current.current) !== JSON.stringify(values))
      history.current.push(current.current)
    isUndoing.current = false
    current.current = values
    setCanUndo(history.current.length > 0)
  }, [parameters])

  const undo = useCallback(() => {
    const previous = history.current.pop()
    if (!previous) return
    isUndoing.current = true
    setValues(previous)
  }, [setValues])

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const isText =
        event.target instanceof HTMLElement &&
        (event.target.isContentEditable ||
          (event.target instanceof HTMLInputElement && event.target.type === 'text') ||
          event.target instanceof HTMLTextAreaElement)
      if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === 'z' && !isText) {
        event.preventDefault()
        undo()
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [undo])

  return { canUndo, undo }
}
