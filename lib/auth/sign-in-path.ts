const DEFAULT_NEXT = '/studio'
const THIS_SITE = 'http://paraform.invalid'

/** The requested page's path, set by proxy.ts for server components. */
export const PAGE_PATH_HEADER = 'x-paraform-page-path'

/**
 * Only a path on this site, so a crafted `?next=` cannot send a signed-in user elsewhere.
 * Browsers drop tabs and newlines anywhere in a URL and read `\` as `/`, so `/\t/evil` and
 * `/\evil` would become `//evil`: any control character, space or backslash is refused
 * outright, and what is left must resolve to this site. The answer is the parsed path,
 * percent-encoded, so it is always a valid `Location`.
 */
export function safeNextPath(next: unknown): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (typeof next !== 'string' || !next.startsWith('/') || /[\x00-\x20\x7f-\x9f\\]/.test(next)) return DEFAULT_NEXT
  const url = URL.parse(next, THIS_SITE)
  if (url?.origin !== THIS_SITE) return DEFAULT_NEXT
  return `${url.pathname}${url.search}${url.hash}`
}

export function signInPath(next: string): string {
  return `/signin?next=${encodeURIComponent(next)}`
}
