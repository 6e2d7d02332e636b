import { z } from 'zod'
import { belongsToDomain } from '@/lib/applications/application-domain'
import type { RefusedValues } from '@/lib/cad/refused-values-schema'
import type { ZObjectInfo, ZParameterSet } from '@/lib/sessions/schemas'
import type { SnapshotDto } from '@/lib/snapshots/schemas'

// The messages between an embedded configurator (/embed/{key}) and the shop page that frames
// it, version 1 (docs/embed.md). Every message carries `protocol: 'paraform'` and `version`;
// anything else, from any other window or origin, is ignored. Host messages are checked here
// before any of them reaches the server.

export const EMBED_PROTOCOL = 'paraform'
export const EMBED_VERSION = 1
/** Larger host messages are dropped unread: no set of values needs more. */
export const MAX_HOST_MESSAGE_CHARS = 16 * 1024

const envelope = { protocol: z.literal(EMBED_PROTOCOL), version: z.literal(EMBED_VERSION) }
const ZRequestId = z.string().min(1).max(64).describe('chosen by the page; the answer carries it back')
const ZValue = z.union([z.number(), z.string().max(4000), z.boolean(), z.array(z.number()).max(64)])

export const ZHostMessage = z.discriminatedUnion('type', [
  z.object({
    ...envelope,
    type: z.literal('set'),
    requestId: ZRequestId,
    values: z.record(z.string().max(200), ZValue).describe('parameter key → value'),
  }),
  z.object({ ...envelope, type: z.literal('applyPreset'), requestId: ZRequestId, name: z.string().min(1).max(200) }),
  z.object({ ...envelope, type: z.literal('snapshot'), requestId: ZRequestId }),
  z.object({ ...envelope, type: z.literal('openAr'), requestId: ZRequestId }),
])
export type HostMessage = z.infer<typeof ZHostMessage>
const HOST_MESSAGE_TYPES = ZHostMessage.options.map((option) => option.shape.type.value)

type ParameterSet = z.infer<typeof ZParameterSet>
type PrintReport = z.infer<typeof ZObjectInfo>['print']

/** What the embed tells the page. */
export type EmbedMessage = { protocol: typeof EMBED_PROTOCOL; version: typeof EMBED_VERSION } & (
  | { type: 'ready'; sessionId: string; parameters: ParameterSet }
  | {
      type: 'change'
      /** Each parameter's value in the model just built. */
      values: Record<string, ParameterSet[string]['value']>
      /** The model built with these values and no value was refused. */
      valid: boolean
      /** Why the model did not build, in words a customer reads (a failed assert's message); null when it built. */
      failure: string | null
      /** Refused values: parameter key → why. */
      errors: Record<string, string>
      /** Grams and price of the manufactured (final) model, as the slicer quotes it once its slice is done; `estimate` while the preview's or the solid model's stand in. */
      weight: number | null
      price: PrintReport['price']
      /** The slicer's estimate of the print, in seconds; null until its slice is done. */
      printTimeSeconds: number | null
      estimate: boolean
      /** The page's `set` and `applyPreset` requests this change completes. */
      requestIds: string[]
    }
  /** Where the model refuses values, each time the server's map of them changes: GET .../refused-values's answer. */
  | ({ type: 'refusedValues' } & RefusedValues)
  | { type: 'error'; requestId: string | null; code: string; message: string }
  | { type: 'snapshot'; requestId: string; snapshot: SnapshotDto }
  /** The page's `openAr` request opened "View in your space": Quick Look, Scene Viewer or the QR code to a phone. */
  | { type: 'ar'; requestId: string; opened: 'quickLook' | 'sceneViewer' | 'qrCode' }
)

/** A host message as sent, or why it is ignored. */
export function readHostMessage(data: unknown): { message: HostMessage } | { ignored: string } {
  if (typeof data !== 'object' || data === null || (data as { protocol?: unknown }).protocol !== EMBED_PROTOCOL)
    return { ignored: 'not a Paraform message' }
  let size: number
  try {
    size = JSON.stringify(data).length
  } catch {
    return { ignored: 'not JSON' }
  }
  if (size > MAX_HOST_MESSAGE_CHARS) return { ignored: `larger than ${MAX_HOST_MESSAGE_CHARS} characters` }
  const type = (data as { type?: unknown }).type
  if (!HOST_MESSAGE_TYPES.includes(type as HostMessage['type']))
    return { ignored: `unknown type ${JSON.stringify(type)}` }
  const result = ZHostMessage.safeParse(data)
  return result.success ? { message: result.data } : { ignored: z.prettifyError(result.error) }
}

/**
 * The host message an event carries when it comes from the framing page (`parent`) at
 * `hostOrigin`; null for anything else. What that page sends but is ignored is logged in development.
 */
export function hostMessageOf(
  event: Pick<MessageEvent, 'source' | 'origin' | 'data'>,
  parent: unknown,
  hostOrigin: string,
): HostMessage | null {
  if (event.source !== parent || event.origin !== hostOrigin) return null
  const read = readHostMessage(event.data)
  if ('message' in read) return read.message
  if (process.env.NODE_ENV === 'development')
    console.debug(`paraform embed: message ignored (${read.ignored})`, event.data)
  return null
}

/** The origin of the page framing this one, when it belongs to the application's `domain`; null otherwise. */
export function framingOrigin(
  domain: string,
  ancestorOrigins: readonly string[] | undefined,
  referrer: string,
): string | null {
  const candidate = ancestorOrigins?.[0] ?? (referrer ? safeOrigin(referrer) : null)
  return candidate && belongsToDomain(candidate, domain) ? candidate : null
}

function safeOrigin(url: string): string | null {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}
