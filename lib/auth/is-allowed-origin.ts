const DEVELOPMENT_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * A browser call's Origin must be the application's domain (with its port when the domain
 * names one); localhost is always allowed for development.
 */
export function isAllowedOrigin(origin: string, domain: string): boolean {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false
  if (DEVELOPMENT_HOSTS.has(url.hostname)) return true
  return domain.includes(':') ? url.host === domain : url.hostname === domain
}
