'use client'

import { useEffect, useState } from 'react'
import { Spinner } from '@/components/ui/spinner'

/** Seconds of building after which the elapsed time shows: a quick build stays a blink. */
const SHOW_ELAPSED_AFTER_S = 1

/** When `isOn` last became true (ms since the epoch); null while it is false. */
export function useSince(isOn: boolean): number | null {
  const [since, setSince] = useState<number | null>(null)
  useEffect(() => setSince(isOn ? Date.now() : null), [isOn])
  return since
}

/** The building state over the viewer: how long it has been building, and a way back to the model shown. */
export function BuildingIndicator({ since, onCancel }: { since: number; onCancel: (() => void) | null }) {
  const [now, setNow] = useState(since)
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [since])
  const seconds = Math.floor((now - since) / 1000)
  return (
    <span className="pointer-events-auto flex items-center gap-3 rounded-full bg-white/90 px-3 py-1 shadow-sm">
      <Spinner label={seconds >= SHOW_ELAPSED_AFTER_S ? `Building... ${seconds} s` : 'Building...'} />
      {onCancel && (
        <button
          type="button"
          onClick={onCancel}
          className="rounded-sm text-sm font-medium text-stone-800 underline underline-offset-2 hover:text-stone-950 focus-visible:outline-2 focus-visible:outline-stone-900"
        >
          Cancel
        </button>
      )}
    </span>
  )
}
