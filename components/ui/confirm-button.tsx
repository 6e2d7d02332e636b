'use client'

import { useState } from 'react'
import { Button } from '@/components/ui/button'

interface ConfirmButtonProps {
  /** The button's text, e.g. "Delete". */
  label: string
  /** What screen readers hear for the button, e.g. "Delete main.scad". */
  accessibleLabel?: string
  /** Asked in place of the button, e.g. "Delete main.scad?". */
  question: string
  onConfirm: () => void
  disabled?: boolean
}

/** A destructive action that asks inline first: no modal, keyboard focus lands on the answer. */
export function ConfirmButton({ label, accessibleLabel, question, onConfirm, disabled }: ConfirmButtonProps) {
  const [isAsking, setIsAsking] = useState(false)
  if (!isAsking) {
    return (
      <Button variant="secondary" aria-label={accessibleLabel} onClick={() => setIsAsking(true)} disabled={disabled}>
        {label}
      </Button>
    )
  }
  return (
    <span role="group" aria-label={question} className="inline-flex flex-wrap items-center gap-2">
      <span className="text-sm text-stone-800">{question}</span>
      <Button
        variant="danger"
        autoFocus
        onClick={() => {
          setIsAsking(false)
          onConfirm()
        }}
      >
        {label}
      </Button>
      <Button variant="ghost" onClick={() => setIsAsking(false)}>
        Cancel
      </Button>
    </span>
  )
}
