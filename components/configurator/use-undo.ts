'use client'

import { useCallback, useEffect, useRef, useState } from 'react'
import type { Values } from '@/components/configurator/share-values'
import type { ParameterSet } from '@/lib/sessions/schemas'

/** Where the current gesture stands: none begun since the last step, begun, or begun and already one step. */
type Gesture = 'none' | 'begun' | 'recorded'

function isTextField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable ||
      (target instanceof HTMLInputElement && target.type === 'text') ||
      target instanceof HTMLTextAreaElement)
  )
}

/**
 * Undo over the values the server stored, one step per gesture: a press of the pointer (a drag,
 * a click on a preset or Reset) or of a key (held down, its repeats are the same press) begins
 * one, and the values before its first stored change are the step, whatever was built on the
 * way. `beginGesture` begins one for a change from elsewhere (the shop's page). Ctrl/Cmd+Z
 * undoes, except in a text field, where it undoes the typing as browsers do.
 */
export function useUndo(parameters: ParameterSet | null, setValues: (values: Values) => void) {
  const history = useRef<Values[]>([])
  const current = useRef<Values | null>(null)
  const gesture = useRef<Gesture>('none')
  const isUndoing = useRef(false)
  const [canUndo, setCanUndo] = useState(false)

  useEffect(() => {
    if (!parameters) return
    const values = Object.fromEntries(Object.entries(parameters).map(([key, parameter]) => [key, parameter.value]))
    const isChange = current.current !== null && JSON.stringify(current.current) !== JSON.stringify(values)
    if (isChange && !isUndoing.current && gesture.current !== 'recorded') {
      history.current.push(current.current!)
      gesture.current = 'recorded'
    }
    isUndoing.current = false
    current.current = values
    setCanUndo(history.current.length > 0)
  }, [parameters])

  const beginGesture = useCallback(() => {
    gesture.current = 'begun'
  }, [])

  const undo = useCallback(() => {
    const previous = history.current.pop()
    if (!previous) return
    isUndoing.current = true
    gesture.current = 'none'
    setValues(previous)
  }, [setValues])

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === 'z') {
        if (isTextField(event.target)) return
        event.preventDefault()
        return undo()
      }
      if (!event.repeat) beginGesture()
    }
    window.addEventListener('keydown', onKeyDown)
    window.addEventListener('pointerdown', beginGesture, { capture: true })
    return () => {
      window.removeEventListener('keydown', onKeyDown)
      window.removeEventListener('pointerdown', beginGesture, { capture: true })
    }
  }, [undo, beginGesture])

  return { canUndo, undo, beginGesture }
}
