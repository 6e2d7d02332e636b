import type { IncomingMessage } from 'node:http'
import proxyAddr from 'proxy-addr'
import { env } from '@/lib/env'

/** Set by server.ts on every request (any value a client sent is replaced); read only here. */
export const CLIENT_ADDRESS_HEADER = 'x-paraform-client-address'

const trust = proxyAddr.compile(env.TRUST_PROXY)

/**
 * The client's address: the socket's peer, or, when that peer is a proxy named in TRUST_PROXY,
 * the address X-Forwarded-For gives (walking back through further trusted proxies).
 */
export function clientAddressOf(request: IncomingMessage): string {
  return proxyAddr(request, trust)
}

/** The address server.ts found; `unknown` when no server.ts stands in front (route tests). */
export function readClientAddress(request: Request): string {
  return request.headers.get(CLIENT_ADDRESS_HEADER) ?? 'unknown'
}
