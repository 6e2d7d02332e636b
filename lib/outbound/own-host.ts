import 'server-only'
import net from 'node:net'
import os from 'node:os'
import { env } from '@/lib/env'
import { isPublicAddress } from '@/lib/outbound/is-public-address'

/** Whether an IP address is one of this machine's interface addresses (public ones too). */
export function isOwnAddress(address: string): boolean {
  const family = net.isIP(address)
  if (family === 0) return false
  const own = new net.BlockList()
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? [])
      own.addAddress(entry.address.split('%')[0]!, entry.family === 'IPv4' ? 'ipv4' : 'ipv6')
  }
  return own.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * Why an external texture URL may not be fetched by a render, or null. Its host is read as
 * the browser reads it (the WHATWG URL parser turns 2130706433, 0x7f.1 or [0:0::1] into one
 * spelling), then refused when it is an IP that is not public or is this machine's, a
 * localhost name, or one of `ownNames` (this server's host names), on any port. Names that
 * merely resolve to such an address are refused when fetched (fetchPublicUrl).
 */
export function externalUrlProblem(url: string, ownNames: string[]): string | null {
  let hostname: string
  try {
    hostname = new URL(url).hostname
  } catch {
    return 'must be an http(s) URL'
  }
  const bare = hostname.replace(/^\[(.*)\]$/, '$1')
  if (net.isIP(bare)) {
    if (!isPublicAddress(bare)) return `${hostname} is not a public address`
    return isOwnAddress(bare) ? `${hostname} is this server` : null
  }
  const name = withoutTrailingDots(bare)
  if (name === 'localhost' || name.endsWith('.localhost')) return `${hostname} is this server`
  return ownNames.map(hostOf).includes(name) ? `${hostname} is this server` : null
}

/** The host name part of a Host header, URL or bare name, lower case, without port and trailing dots; '' when none. */
function hostOf(text: string): string {
  try {
    return withoutTrailingDots(new URL(text.includes('://') ? text : `http://${text}`).hostname)
  } catch {
    return ''
  }
}

function withoutTrailingDots(name: string): string {
  return name.replace(/\.+$/, '')
}

/** This server's host names: the Host a request came in on, the machine's name and RENDER_BASE_URL's host. */
export function ownHostNames(requestHost: string | null): string[] {
  return [requestHost ?? '', os.hostname(), env.RENDER_BASE_URL ?? ''].filter(Boolean)
}
