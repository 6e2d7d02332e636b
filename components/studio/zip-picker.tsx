'use client'

import { useRef } from 'react'
import { Button } from '@/components/ui/button'

interface ZipPickerProps {
  /** The button's text, and while busy, what it does. */
  label: string
  busyLabel: string
  isBusy: boolean
  /** Names the file input for assistive technology and tests. */
  inputLabel: string
  onPick: (zip: File) => void
}

/** A button that picks one .zip file (the input itself stays hidden). */
export function ZipPicker({ label, busyLabel, isBusy, inputLabel, onPick }: ZipPickerProps) {
  const picker = useRef<HTMLInputElement>(null)
  return (
    <div>
      <Button variant="secondary" onClick={() => picker.current?.click()} disabled={isBusy}>
        {isBusy ? busyLabel : label}
      </Button>
      <input
        ref={picker}
        type="file"
        accept=".zip,application/zip"
        tabIndex={-1}
        aria-label={inputLabel}
        className="sr-only"
        onChange={(event) => {
          const zip = event.target.files?.[0]
          if (zip) onPick(zip)
          event.target.value = ''
        }}
      />
    </div>
  )
}
