import 'server-only'
import net from 'node:net'
import os from 'node:os'
import { env } from '@/lib/env'
import { isPublicAddress } from '@/lib/outbound/is-public-address'
import { externalUrlProblem, isOwnAddress, ownHostNames } from '@/lib/outbound/own-host'
import { type WebInstanceAddress, webInstances } from '@/lib/webhooks/web-instances'

// Webhooks go where an application's owner says: like every address this server contacts for
// someone else, only public addresses of other servers, except the `host:port` pairs the
// operator allows (WEBHOOK_ALLOWED_HOSTS, a shop's back end beside this server). No web instance
// of the deployment (lib/webhooks/web-instances.ts) is ever allowed, listed or not.

function portOf(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80))
}

function isAllowedByOperator(url: URL): boolean {
  return env.WEBHOOK_ALLOWED_HOSTS.includes(`${url.hostname}:${portOf(url)}`)
}

/** Whether `address` (an IP) or `hostname` reaches an instance on the same machine, from this one. */
function isThisMachine(host: string, ownNames: string[]): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  if (net.isIP(bare)) return !isPublicAddress(bare) || isOwnAddress(bare)
  return bare === 'localhost' || bare.endsWith('.localhost') || ownNames.some((name) => name.split(':')[0] === bare)
}

/** Whether `host` on `port` is one of the deployment's web instances. */
function isAnInstance(host: string, port: number, instances: WebInstanceAddress[], ownNames: string[]): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1')
  return instances.some(
    (instance) =>
      instance.port === port &&
      (instance.addresses.includes(bare) ||
        instance.hostname === bare ||
        (instance.hostname === os.hostname() && isThisMachine(host, ownNames))),
  )
}

/** Why a webhook URL may not be registered, or null. */
export async function webhookUrlProblem(text: string, requestHost: string | null): Promise<string | null> {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'must be an http(s) URL'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL'
  if (url.username || url.password) return 'must not hold a user name or password'
  const ownNames = ownHostNames(requestHost)
  if (isAnInstance(url.hostname, portOf(url), await webInstances(), ownNames)) return `${url.host} is this server`
  if (isAllowedByOperator(url)) return null
  const problem = externalUrlProblem(url.href, ownNames)
  return (
    problem &&
    `${problem}; webhooks go to public addresses of other servers, or to a host:port in WEBHOOK_ALLOWED_HOSTS`
  )
}

/** Which addresses a delivery to `url` may connect to, checked again on every attempt (DNS and the deployment may have changed). */
export async function deliveryAddressRule(url: URL): Promise<(address: string) => boolean> {
  const allowed = isAllowedByOperator(url)
  const port = portOf(url)
  const instances = await webInstances()
  return (address) => {
    if (isAnInstance(address, port, instances, [])) return false
    return allowed || (isPublicAddress(address) && !isOwnAddress(address))
  }
}
