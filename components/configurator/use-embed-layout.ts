'use client'

import { useEffect, useState } from 'react'
import { belongsToDomain } from '@/lib/applications/application-domain'

/** What the embed shows: the shop's `mount()` options, which /embed.js puts in the frame's fragment. */
export interface EmbedLayout {
  /** False: the viewer alone, driven by the shop's own controls. */
  controls: boolean
  price: boolean
  presets: boolean
  /** "View in your space" (docs/ar.md). */
  ar: boolean
  /** The shop's product page, where share links point (with the values in its query). */
  shareUrl: string | null
}

const EVERYTHING: EmbedLayout = { controls: true, price: true, presets: true, ar: true, shareUrl: null }

/** The layout the framing shop asked for; a shareUrl off the application's domain is refused, and `refusal` says so. */
export function useEmbedLayout(domain: string | undefined): { layout: EmbedLayout; refusal: string | null } {
  const [read, setRead] = useState<{ layout: EmbedLayout; refusal: string | null }>({
    layout: EVERYTHING,
    refusal: null,
  })
  useEffect(() => {
    if (!domain) return
    const fragment = new URLSearchParams(window.location.hash.slice(1))
    const shown = (name: string) => fragment.get(name) !== 'false'
    const shareUrl = fragment.get('shareUrl')
    const isOffDomain = shareUrl !== null && !belongsToDomain(shareUrl, domain)
    setRead({
      layout: {
        controls: shown('controls'),
        price: shown('price'),
        presets: shown('presets'),
        ar: shown('ar'),
        shareUrl: isOffDomain ? null : shareUrl,
      },
      refusal: isOffDomain
        ? `Paraform.mount: shareUrl ${shareUrl} is not a page of the application's domain ${domain}`
        : null,
    })
  }, [domain])
  return read
}
