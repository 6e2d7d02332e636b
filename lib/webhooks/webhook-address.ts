import 'server-only'
import net from 'node:net'
import { env } from '@/lib/env'
import { isPublicAddress } from '@/lib/render/server/is-public-address'
import { externalUrlProblem, isOwnAddress, ownHostNames } from '@/lib/render/server/own-host'

// Webhooks go where an application's owner says: like every address this server contacts for
// someone else, only public addresses of other servers, except the `host:port` pairs the
// operator allows (WEBHOOK_ALLOWED_HOSTS, a shop's back end beside this server). This server's
// own port on its own addresses is never allowed, listed or not.

function hostPortOf(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`
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
  const isThisServer = isLoopbackOrOwn(url.hostname, ownNames) && Number(hostPortOf(url).split(':').at(-1)) === env.PORT
  if (isThisServer) return `${url.host} is this server`
  if (env.WEBHOOK_ALLOWED_HOSTS.includes(hostPortOf(url))) return null
  const problem = externalUrlProblem(url.href, ownNames)
  return problem && `${problem}; webhooks go to public addresses of other servers, or to a host:port in WEBHOOK_ALLOWED_HOSTS`
}

/** Which addresses a delivery to `url` may connect to, checked again on every attempt (DNS may have changed). */
export function deliveryAddressRule(url: URL): (address: string) => boolean {
  const allowed = env.WEBHOOK_ALLOWED_HOSTS.includes(hostPortOf(url))
  const port = Number(hostPortOf(url).split(':').at(-1))
  return (address) => {
    const isOwn = !isPublicAddress(address) || isOwnAddress(address)
    if (allowed) return !(isOwn && port === env.PORT)
    return !isOwn
  }
}
