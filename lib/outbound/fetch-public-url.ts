import 'server-only'
import dns from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import net, { type LookupFunction } from 'node:net'
import { isPublicAddress } from '@/lib/outbound/is-public-address'
import { isOwnAddress } from '@/lib/outbound/own-host'

export class PublicUrlError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PublicUrlError'
  }
}

export interface FetchPublicUrlOptions {
  maxBytes?: number
  timeoutMs?: number
  maxRedirects?: number
  /** Which resolved addresses may be contacted (default: public ones that are not this machine's). */
  isAllowedAddress?: (address: string) => boolean
  /** Tests only: name resolution (default: every address node:dns lookup gives). */
  resolve?: (hostname: string) => Promise<string[]>
}

export interface SendOptions extends Pick<
  FetchPublicUrlOptions,
  'maxBytes' | 'timeoutMs' | 'isAllowedAddress' | 'resolve'
> {
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
}

export interface PublicResponse {
  /** The URL that answered, after redirects. */
  url: string
  contentType: string
  body: Buffer
}

/** How a render's requests introduce themselves: this server refuses images to them (isRendererRequest). */
export const RENDERER_USER_AGENT = 'Paraform renderer'

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * GET of a URL on the public internet for content someone else named (external textures).
 * Every address the name resolves to must be public and not this machine's own (a render must
 * not reach this server, see image-renderer.ts), and the connection goes to the address
 * that was checked, never to a second lookup's answer, so DNS rebinding cannot swap in an
 * internal one. Redirects are followed here, each hop checked again. Size and time limited.
 * Anything refused or failed throws PublicUrlError.
 */
export async function fetchPublicUrl(url: string, options: FetchPublicUrlOptions = {}): Promise<PublicResponse> {
  const { maxBytes = 10 * 1024 * 1024, timeoutMs = 5000, maxRedirects = 3 } = options
  const signal = AbortSignal.timeout(timeoutMs)
  let current = parseUrl(url)
  const headers = { 'user-agent': RENDERER_USER_AGENT, accept: 'image/*, */*;q=0.5' }
  try {
    for (let hop = 0; ; hop++) {
      const address = await withSignal(checkedAddress(current.hostname, options), signal)
      const response = await send(current, address, signal, { method: 'GET', headers })
      const status = response.statusCode ?? 0
      const location = response.headers.location
      if (REDIRECTS.has(status) && location) {
        response.resume()
        if (hop >= maxRedirects) throw new PublicUrlError(`more than ${maxRedirects} redirects`)
        current = parseUrl(new URL(location, current).href)
        continue
      }
      if (status < 200 || status > 299) {
        response.resume()
        throw new PublicUrlError(`answered HTTP ${status}`)
      }
      const body = await readLimited(response, maxBytes)
      return { url: current.href, contentType: response.headers['content-type'] ?? 'application/octet-stream', body }
    }
  } catch (error) {
    throw asPublicUrlError(error, signal, timeoutMs)
  }
}

/**
 * One request to a URL whatever its answer, no redirect followed, with fetchPublicUrl's checks
 * of every address; the answer's body is read up to `maxBytes`.
 */
export async function sendToPublicUrl(url: string, options: SendOptions): Promise<{ status: number; body: Buffer }> {
  const { maxBytes = 64 * 1024, timeoutMs = 10_000 } = options
  const signal = AbortSignal.timeout(timeoutMs)
  const target = parseUrl(url)
  try {
    const address = await withSignal(checkedAddress(target.hostname, options), signal)
    const response = await send(target, address, signal, options)
    return { status: response.statusCode ?? 0, body: await readLimited(response, maxBytes) }
  } catch (error) {
    throw asPublicUrlError(error, signal, timeoutMs)
  }
}

function asPublicUrlError(error: unknown, signal: AbortSignal, timeoutMs: number): PublicUrlError {
  if (error instanceof PublicUrlError) return error
  return new PublicUrlError(signal.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message)
}

function parseUrl(text: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new PublicUrlError('not a URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new PublicUrlError(`${url.protocol} URLs are not fetched`)
  if (url.username || url.password) throw new PublicUrlError('URLs with credentials are not fetched')
  return url
}

/** The address to connect to: every address of the name must be allowed, not just one of them. */
async function checkedAddress(hostname: string, options: FetchPublicUrlOptions): Promise<string> {
  const isAllowed = options.isAllowedAddress ?? isAllowedAddress
  const bare = hostname.replace(/^\[(.*)\]$/, '$1')
  const addresses = net.isIP(bare) ? [bare] : await (options.resolve ?? resolveAll)(bare)
  if (addresses.length === 0) throw new PublicUrlError(`${bare} does not resolve`)
  // The message leaves the address out: it reaches customers, who should not map internal names.
  if (!addresses.every(isAllowed)) throw new PublicUrlError(`${bare} is not a public address`)
  return addresses[0]!
}

function isAllowedAddress(address: string): boolean {
  return isPublicAddress(address) && !isOwnAddress(address)
}

async function resolveAll(hostname: string): Promise<string[]> {
  const results = await dns.lookup(hostname, { all: true, verbatim: true }).catch(() => [])
  return results.map((result) => result.address)
}

function send(
  url: URL,
  address: string,
  signal: AbortSignal,
  { method, headers, body }: Omit<SendOptions, 'timeoutMs' | 'maxBytes'>,
): Promise<http.IncomingMessage> {
  const family = net.isIP(address)
  // Node asks this instead of DNS: the connection can only go to the checked address.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method,
      lookup,
      signal,
      agent: false, // no pooled socket from an earlier lookup
      headers,
    })
    request.on('response', resolve)
    request.on('error', reject)
    request.end(body)
  })
}

async function readLimited(response: http.IncomingMessage, maxBytes: number): Promise<Buffer> {
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
    response.destroy()
    throw new PublicUrlError(`larger than ${maxBytes} bytes`)
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) {
      response.destroy()
      throw new PublicUrlError(`larger than ${maxBytes} bytes`)
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

function withSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted()
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })
    promise.then(resolve, reject)
  })
}
