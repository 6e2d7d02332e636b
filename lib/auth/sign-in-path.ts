const DEFAULT_NEXT = '/studio'

/** The requested page's path, set by proxy.ts for server components. */
export const PAGE_PATH_HEADER = 'x-paraform-page-path'

/** Only a path on this site, so a crafted `?next=` cannot send a signed-in user elsewhere. */
export function safeNextPath(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : DEFAULT_NEXT
}

export function signInPath(next: string): string {
  return `/signin?next=${encodeURIComponent(next)}`
}
