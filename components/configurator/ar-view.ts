// Where "View in your space" leads on each device (docs/ar.md): the device told by its user
// agent, as Apple's own feature test (`relList.supports('ar')`) is false outside Safari.

export type ArDevice = 'ios' | 'android' | 'desktop'

/** What opens AR on the device: Quick Look (iOS), Scene Viewer (Android), or a QR code to a phone. */
export const AR_OPENERS = { ios: 'quickLook', android: 'sceneViewer', desktop: 'qrCode' } as const
export type ArOpener = (typeof AR_OPENERS)[ArDevice]

export function arDeviceOf(userAgent: string, maxTouchPoints: number): ArDevice {
  // An iPad asks for desktop pages as a Mac, one with a touch screen.
  if (/iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1)) return 'ios'
  if (/Android/.test(userAgent)) return 'android'
  return 'desktop'
}

/** Quick Look's link to the USDZ: at its real size, the customer cannot scale it. */
export function quickLookHref(usdzUrl: string): string {
  return `${usdzUrl}#allowsContentScaling=0`
}

/**
 * Google's Scene Viewer, opened by an Android intent with the GLB's address (public and https, or
 * the phone cannot fetch it), at its real size; without Scene Viewer the browser goes to `fallbackUrl`.
 */
export function sceneViewerIntent(glbUrl: string, title: string, fallbackUrl: string): string {
  const query = new URLSearchParams({ file: glbUrl, mode: 'ar_preferred', resizable: 'false', title })
  return (
    `intent://arvr.google.com/scene-viewer/1.2?${query}#Intent;scheme=https;` +
    'package=com.google.android.googlequicksearchbox;action=android.intent.action.VIEW;' +
    `S.browser_fallback_url=${encodeURIComponent(fallbackUrl)};end;`
  )
}
