'use client'

import { useState } from 'react'
import { Button, buttonClasses } from '@/components/ui/button'
import { ErrorMessage } from '@/components/ui/error-message'
import { modelUrl } from '@/components/configurator/use-renderer-scene'
import type { ConfigSession } from '@/components/configurator/use-config-session'
import type { ApiCredentials } from '@/lib/client/api-client'
import { callApi } from '@/lib/endpoints/client'

interface ModelDownloadsProps {
  session: ConfigSession
  credentials: ApiCredentials | undefined
  /** False when the application keeps the finalized model for the shop's back end (secureModel). */
  canDownloadFinal: boolean
  /** The designer's preview in the studio, not a shop's customer page. */
  isDesignerPreview: boolean
  /** While values are on their way the files would not match what is shown. */
  isBusy: boolean
  fileStem: string
  /** What the model is downloaded as: STL and 3MF for printing, then what its CAD system writes (STEP). */
  types: string[]
}

export function ModelDownloads({
  session,
  credentials,
  canDownloadFinal,
  isDesignerPreview,
  isBusy,
  fileStem,
  types,
}: ModelDownloadsProps) {
  const [saveError, setSaveError] = useState<unknown>(null)
  const [isSaving, setIsSaving] = useState(false)
  const quality = canDownloadFinal ? 'final' : 'preview'

  async function saveSession() {
    setIsSaving(true)
    setSaveError(null)
    try {
      const response = await callApi('saveSession', { params: { sessionId: session.id }, credentials })
      downloadBlob(await response.blob(), `${fileStem}-session.zip`)
    } catch (error) {
      setSaveError(error)
    } finally {
      setIsSaving(false)
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {types.map((type) =>
          isBusy ? (
            <Button key={type} variant="secondary" disabled>
              Download {type.toUpperCase()}
            </Button>
          ) : (
            <a
              key={type}
              className={buttonClasses('secondary')}
              href={modelUrl(session, type, quality, `${fileStem}.${type}`)}
              download={`${fileStem}.${type}`}
            >
              Download {type.toUpperCase()}
            </a>
          ),
        )}
        <Button variant="secondary" onClick={saveSession} disabled={isSaving}>
          {isSaving ? 'Saving...' : 'Save session'}
        </Button>
      </div>
      {!canDownloadFinal && (
        <p className="text-xs text-stone-600">
          {isDesignerPreview
            ? 'Preview-quality files of the draft. A shop downloads the production-quality model with its server token.'
            : 'These are preview-quality files: this shop makes the production-quality model itself after you order.'}
        </p>
      )}
      <ErrorMessage error={saveError} />
    </div>
  )
}

function downloadBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob)
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = filename
  anchor.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
