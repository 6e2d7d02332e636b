// An application's domain is a host with an optional port. One rule says which origins belong to
// it, for the anonymous-token Origin check, the embed page's frame-ancestors and the embed's
// messages alike: without a port, the host on any port over http or https; with a port, exactly
// that host and port. Browser code uses it too (lib/embed/messages.ts).

const HOST = /^(?:[a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/

interface DomainRule {
  host: string
  /** Null: any port. */
  port: string | null
}

/** The rule of a plain `host[:port]`; null for anything else (a scheme, a path, a wildcard, a CSP fragment). */
function ruleOf(domain: string): DomainRule | null {
  const match = /^(.+?)(?::(\d{1,5}))?$/.exec(domain.trim().toLowerCase())
  const host = match?.[1]
  return host && HOST.test(host) ? { host, port: match[2] ?? null } : null
}

/** Whether `origin` (scheme://host[:port]) belongs to the application's `domain`. */
export function belongsToDomain(origin: string, domain: string): boolean {
  const rule = ruleOf(domain)
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (!rule || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname !== rule.host) return false
  return rule.port === null || (url.port || (url.protocol === 'https:' ? '443' : '80')) === rule.port
}

/** The CSP `frame-ancestors` value that lets only origins of the application's domain frame its embed page. */
export function frameAncestors(domain: string): string {
  const rule = ruleOf(domain)
  if (!rule) return "'none'"
  const port = rule.port ?? '*'
  return `http://${rule.host}:${port} https://${rule.host}:${port}`
}

/** The rule in words, with examples, for the studio. */
export function describeDomain(domain: string): string {
  const rule = ruleOf(domain)
  if (!rule) return `${domain} is no host[:port]: no page can embed the configurator`
  if (rule.port === null)
    return `Pages of ${rule.host} on any port, over http or https, may embed it: https://${rule.host}/product and http://${rule.host}:8080/ both can.`
  const other = rule.port === '8080' ? '8081' : '8080'
  return (
    `Only pages at http://${rule.host}:${rule.port} ` +
    `or https://${rule.host}:${rule.port} ` +
    `may embed it; ${rule.host}:${other} cannot ` +
    `(a domain without a port allows every port).`
  )
}
