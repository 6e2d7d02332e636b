const HOST = /^(?:[A-Za-z0-9-]+\.)*[A-Za-z0-9-]+$|^\[[0-9A-Fa-f:.]+\]$/

/**
 * The CSP `frame-ancestors` value that lets only the application's domain frame its embed
 * page, over http and https. A domain without a port matches any port, as Origin checks do
 * (application-tokens.ts); anything that is not a plain host[:port] allows no framing at all.
 */
export function frameAncestors(domain: string): string {
  const match = /^(.+?)(?::(\d{1,5}))?$/.exec(domain.trim())
  const host = match?.[1]
  if (!host || !HOST.test(host)) return "'none'"
  const port = match[2] ?? '*'
  return `http://${host}:${port} https://${host}:${port}`
}
