// The browser UI's sign-in: the user token in an httpOnly cookie, never in script-readable storage.

export const SESSION_COOKIE = 'paraform_session'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** `Secure` whenever the page was served over https, also behind a TLS-terminating proxy. */
function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https'
}

export function sessionCookie(request: Request, token: string, maxAgeSeconds: number): string {
  return [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
    ...(isHttps(request) ? ['Secure'] : []),
  ].join('; ')
}

export function clearedSessionCookie(request: Request): string {
  return sessionCookie(request, '', 0)
}

export function readSessionCookie(cookieHeader: string | null): string | null {
  for (const part of cookieHeader?.split(';') ?? []) {
    const [name, ...value] = part.trim().split('=')
    if (name === SESSION_COOKIE) return value.join('=') || null
  }
  return null
}

/**
 * CSRF: a cookie rides along on requests another site makes the browser send, so a request
 * that changes something counts only when the browser says it comes from this site. Browsers
 * send Sec-Fetch-Site (or at least Origin) on every such request; without either it is refused.
 */
export function isSameOriginOrSafe(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return true
  const site = request.headers.get('sec-fetch-site')
  if (site !== null) return site === 'same-origin'
  const origin = request.headers.get('origin')
  if (!origin) return false
  try {
    return new URL(origin).host === request.headers.get('host')
  } catch {
    return false
  }
}
