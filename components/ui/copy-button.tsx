'use client'

import { useEffect, useState } from 'react'
import { Button } from '@/components/ui/button'

/** Copies `value` to the clipboard and says so for a moment; `what` names it for screen readers. */
export function CopyButton({ value, what }: { value: string; what: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  useEffect(() => {
    if (state === 'idle') return
    const timer = setTimeout(() => setState('idle'), 2000)
    return () => clearTimeout(timer)
  }, [state])

  async function copy() {
    try {
      await navigator.clipboard.writeText(value)
      setState('copied')
    } catch {
      // The clipboard needs a secure context (https or localhost) and the user's permission.
      setState('failed')
    }
  }

  return (
    <span className="inline-flex items-center gap-2">
      <Button variant="secondary" aria-label={`Copy ${what}`} onClick={copy}>
        Copy
      </Button>
      <span role="status" className={`text-xs ${state === 'failed' ? 'text-red-700' : 'text-green-800'}`}>
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text instead' : ''}
      </span>
    </span>
  )
}
