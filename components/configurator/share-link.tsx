'use client'

import { useEffect, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/field'

/**
 * The link that reopens the shown values (`query`); the address bar follows it so a reload keeps
 * them too. With `shareUrl` (the shop's product page) the link is that page with the values in
 * its query, which the page hands back to `Paraform.mount({values})`.
 */
export function useShareLink(query: string, shareUrl: string | null): string {
  const [link, setLink] = useState('')
  useEffect(() => {
    const url = new URL(window.location.href)
    url.search = query
    window.history.replaceState(window.history.state, '', url)
    const shared = shareUrl ? new URL(shareUrl) : url
    for (const [name, value] of new URLSearchParams(query)) shared.searchParams.set(name, value)
    setLink(shared.toString())
  }, [query, shareUrl])
  return link
}

/** The share link (useShareLink) to copy. */
export function ShareLink({ link }: { link: string }) {
  const [isCopied, setIsCopied] = useState(false)
  useEffect(() => setIsCopied(false), [link])

  return (
    <div className="flex gap-2">
      <Input
        aria-label="Shareable link"
        readOnly
        value={link}
        onFocus={(event) => event.target.select()}
        className="min-w-0 flex-1 text-xs"
      />
      <Button
        variant="secondary"
        onClick={async () => {
          // The clipboard can be refused (e.g. inside a shop's frame); the field stays selectable.
          await navigator.clipboard.writeText(link).then(
            () => setIsCopied(true),
            () => setIsCopied(false),
          )
        }}
      >
        {isCopied ? 'Copied' : 'Copy link'}
      </Button>
    </div>
  )
}
