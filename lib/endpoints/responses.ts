import { attachment } from '@/lib/api/content-disposition'
import type { Principal } from '@/lib/auth/authenticate'
import { apiPath } from '@/lib/endpoints/client'
import type { RenderedImage } from '@/lib/render/server/image-renderer'
import type { Quality } from '@/lib/sessions/model-builds'
import { type ModelFile, sessionModelFile } from '@/lib/sessions/session-model'
import { snapshotModelFile } from '@/lib/snapshots/snapshots'

// The HTTP answers of what the domain hands back as data: a model file, a rendered image.

interface ModelQuery {
  /** A mesh or drawing format, or an export type of the model's CAD system; the model's default when absent. */
  type?: string
  filename?: string
  key?: string
}

/**
 * The model of a session's current state or of a snapshot as a download (GET .../model and
 * .../finalizedmodel of either); a model that did not build names where its log is.
 */
export async function modelFileDownload(
  of: 'session' | 'snapshot',
  id: string,
  principal: Principal | null,
  query: ModelQuery,
  quality: Quality,
): Promise<Response> {
  const options = { principal, key: query.key, quality, type: query.type }
  const file =
    of === 'session'
      ? await sessionModelFile({ ...options, sessionId: id, logPath: apiPath('getLog', { params: { sessionId: id } }) })
      : await snapshotModelFile({
          ...options,
          snapshotId: id,
          logPath: apiPath('getSnapshot', { params: { snapshotId: id } }),
        })
  return modelDownload(file, query)
}

/** A model file as a private download, saying where its build came from. */
function modelDownload({ build, type, bytes, contentType }: ModelFile, query: ModelQuery): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      'content-type': contentType,
      'content-length': String(bytes.byteLength),
      'content-disposition': attachment(query.filename ?? `model.${type}`),
      'cache-control': 'private, no-store',
      'x-build-cache': build.source,
    },
  })
}

const WARNINGS_HEADER_LIMIT = 4000

/** A rendered image, with how long each stage took and what it could not draw. */
export function imageResponse({ bytes, warnings, timings, count }: RenderedImage, type: string): Response {
  return new Response(new Uint8Array(bytes), {
    headers: {
      'content-type': `image/${type}`,
      'content-length': String(bytes.byteLength),
      'cache-control': 'private, no-store',
      'server-timing': [
        ...Object.entries(timings).map(([stage, ms]) => `${stage};dur=${ms.toFixed(1)}`),
        `renders;desc="${count}"`,
      ].join(', '),
      ...(warnings.length > 0 && { 'x-render-warnings': headerValue(warnings) }),
    },
  })
}

/** One header line: printable ASCII, warnings separated by " | ", cut at a sane length. */
function headerValue(warnings: string[]): string {
  const text = warnings.join(' | ').replace(/[^\x20-\x7e]+/g, ' ')
  return text.length > WARNINGS_HEADER_LIMIT ? `${text.slice(0, WARNINGS_HEADER_LIMIT - 3)}...` : text
}
