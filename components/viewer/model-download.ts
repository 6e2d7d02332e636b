import { parseApiError } from '@/lib/client/api-client'

/** A session's GLB, or why it was not answered (409: the values' model did not build). */
export type ModelDownload = { bytes: ArrayBuffer } | { status: number; message: string }

const keyOf = (url: string, version: number) => `${version} ${url}`
let lastAsked: string | null = null
let early: { key: string; download: Promise<ModelDownload> } | null = null

/** Downloads the GLB of the session's model `version`; the one `prefetchModel` started, if it is that one. */
export async function downloadModel(url: string, version: number, signal?: AbortSignal): Promise<ModelDownload> {
  const key = keyOf(url, version)
  lastAsked = key
  if (early?.key === key) {
    const { download } = early
    early = null
    return download
  }
  const response = await fetch(url, { signal, cache: 'no-store' })
  if (response.ok) return { bytes: await response.arrayBuffer() }
  const text = await response.text().catch(() => '')
  return { status: response.status, message: parseApiError(response.status, response.statusText, text).message }
}

/**
 * Starts downloading the first model while the viewer's code (three.js) still loads and starts:
 * the viewer takes the download over instead of asking once it is ready.
 */
export function prefetchModel(url: string, version: number): void {
  const key = keyOf(url, version)
  if (lastAsked === key) return
  early = { key, download: downloadModel(url, version) }
}
