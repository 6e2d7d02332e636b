import 'server-only'
import net from 'node:net'
import { env } from '@/lib/env'
import { isPublicAddress } from '@/lib/render/server/is-public-address'
import { externalUrlProblem, isOwnAddress, ownHostNames } from '@/lib/render/server/own-host'

// Webhooks go where an application's owner says: like every address this server contacts for
// someone else, only public addresses of other servers, except the `host:port` pairs the
// operator allows (WEBHOOK_ALLOWED_HOSTS, a shop's back end beside this server). This server's
// own port on its own addresses is never allowed, listed or not.

function portOf(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80))
}

function isAllowedByOperator(url: URL): boolean {
  return env.WEBHOOK_ALLOWED_HOSTS.includes(`${url.hostname}:${portOf(url)}`)
}

function isLoopbackOrOwn(hostname: string, ownNames: string[]): boolean {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1')
  if (net.isIP(bare)) return !isPublicAddress(bare) || isOwnAddress(bare)
  return bare === 'localhost' || bare.endsWith('.localhost') || ownNames.some((name) => name.split(':')[0] === bare)
}

/** Why a webhook URL may not be registered, or null. */
export function webhookUrlProblem(text: string, requestHost: string | null): string | null {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'must be an http(s) URL'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL'
  if (url.username || url.password) return 'must not hold a user name or password'
  const ownNames = ownHostNames(requestHost)
  if (isLoopbackOrOwn(url.hostname, ownNames) && portOf(url) === env.PORT) return `${url.host} is this server`
  if (isAllowedByOperator(url)) return null
  const problem = externalUrlProblem(url.href, ownNames)
  return problem && `${problem}; webhooks go to public addresses of other servers, or to a host:port in WEBHOOK_ALLOWED_HOSTS`
}

/** Which addresses a delivery to `url` may connect to, checked again on every attempt (DNS may have changed). */
export function deliveryAddressRule(url: URL): (address: string) => boolean {
  const allowed = isAllowedByOperator(url)
  const isThisPort = portOf(url) === env.PORT
  return (address) => {
    const isOwn = !isPublicAddress(address) || isOwnAddress(address)
    return allowed ? !(isOwn && isThisPort) : !isOwn
  }
}
