'use client'

import { useEffect, useRef, useState } from 'react'
import { type ArDevice, arDeviceOf, quickLookHref, sceneViewerIntent } from '@/components/configurator/ar-view'
import type { ConfigSession, ObjectInfo } from '@/components/configurator/use-config-session'
import { modelUrl } from '@/components/configurator/use-renderer-scene'
import { Button, buttonClasses } from '@/components/ui/button'

const LABEL = 'View in your space'

/** The device, once the page runs in a browser (the server renders no button). */
export function useArDevice(): ArDevice | null {
  const [device, setDevice] = useState<ArDevice | null>(null)
  useEffect(() => setDevice(arDeviceOf(navigator.userAgent, navigator.maxTouchPoints)), [])
  return device
}

export interface ArButtonProps {
  session: ConfigSession
  device: ArDevice
  /** The product's name, Scene Viewer's title. */
  title: string
  /** The share link of the current values: the desktop's QR code holds it. */
  shareLink: string
  /** Whether AR can show the model of the current values (its object info); null while that model builds. */
  view: ObjectInfo['ar'] | null
  /** Counts the shop's `openAr()` calls: each opens AR as a tap would. */
  openRequests: number
}

/**
 * "View in your space" (docs/ar.md): on iOS a Quick Look link to the USDZ of the current values,
 * on Android Scene Viewer with their GLB, both by the session's modelKey (no header, as a phone's
 * viewer fetches); on a desktop a QR code of the share link, which opens the same values on a phone.
 */
export function ArButton({ session, device, title, shareLink, view, openRequests }: ArButtonProps) {
  const link = useRef<HTMLAnchorElement>(null)
  const [isQrShown, setIsQrShown] = useState(false)
  const handled = useRef(openRequests)
  useEffect(() => {
    if (openRequests === handled.current) return
    handled.current = openRequests
    if (device === 'desktop') setIsQrShown(true)
    else link.current?.click()
  }, [openRequests, device])

  if (view === null)
    return (
      <Button variant="secondary" disabled data-testid="ar-button" className="shadow-sm">
        Preparing the view in your space…
      </Button>
    )
  if (!view.possible)
    return (
      <p
        data-testid="ar-unavailable"
        className="max-w-xs rounded-md bg-white/90 px-3 py-2 text-xs text-stone-700 shadow-sm"
      >
        {LABEL} is not offered for these values. {view.reason}
      </p>
    )
  const absolute = (type: string) => new URL(modelUrl(session, type), window.location.origin).href
  if (device === 'ios')
    return (
      // Quick Look opens a rel="ar" link whose first child is an image.
      <a ref={link} rel="ar" href={quickLookHref(absolute('usdz'))} data-testid="ar-link">
        {/* eslint-disable-next-line @next/next/no-img-element -- Quick Look needs a plain image as the link's first child */}
        <img src="/ar-badge.svg" alt={LABEL} width={164} height={32} />
      </a>
    )
  if (device === 'android')
    return (
      <a
        ref={link}
        href={sceneViewerIntent(absolute('glb'), title, shareLink || window.location.href)}
        data-testid="ar-link"
        className={buttonClasses('primary', 'shadow-sm')}
      >
        {LABEL}
      </a>
    )
  return (
    <div className="flex flex-col items-start gap-2">
      {isQrShown && <QrPanel link={shareLink} onClose={() => setIsQrShown(false)} />}
      <Button
        variant="secondary"
        data-testid="ar-button"
        aria-expanded={isQrShown}
        className="shadow-sm"
        onClick={() => setIsQrShown((shown) => !shown)}
      >
        {LABEL}
      </Button>
    </div>
  )
}

/** The share link as a QR code, drawn when asked for (qrcode loads then, not with the page). */
function QrPanel({ link, onClose }: { link: string; onClose: () => void }) {
  const [image, setImage] = useState<string | null>(null)
  useEffect(() => {
    let isCurrent = true
    void import('qrcode')
      .then(({ toDataURL }) => toDataURL(link, { margin: 2, width: 200, errorCorrectionLevel: 'M' }))
      .then((url) => isCurrent && setImage(url))
    return () => {
      isCurrent = false
    }
  }, [link])
  return (
    <div
      role="dialog"
      aria-label={LABEL}
      className="flex w-56 flex-col items-center gap-2 rounded-lg bg-white p-3 text-center text-xs text-stone-700 shadow-lg"
    >
      {image ? (
        // eslint-disable-next-line @next/next/no-img-element -- a data URL drawn here, nothing to optimise
        <img src={image} alt="QR code of this configuration" width={200} height={200} data-testid="ar-qr" />
      ) : (
        <div className="h-[200px] w-[200px]" />
      )}
      <p>Scan it with your phone&apos;s camera to see the product in your space, with these values.</p>
      <Button variant="ghost" onClick={onClose}>
        Close
      </Button>
    </div>
  )
}
