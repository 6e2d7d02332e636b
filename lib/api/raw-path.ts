/**
 * Why a raw request path (as the client sent it, before any URL normalization) is refused.
 * On every path: malformed percent-encoding (`%FF`, overlong UTF-8 such as `%C0%AE`), which
 * Next.js would answer with a plain-text 500. Under /api also dot segments, also
 * percent-encoded, backslashes and empty segments: URL parsers resolve `a/%2e%2e/b` to `b`
 * silently, so the check must see the path before they do.
 */
export function rawPathProblem(rawUrl: string): string | null {
  const pathname = rawUrl.split(/[?#]/, 1)[0] ?? ''
  if (!isWellEncoded(pathname)) return 'malformed percent-encoding'
  if (!pathname.startsWith('/api/')) return null
  if (pathname.includes('\\') || /%5c/i.test(pathname)) return 'backslashes are not allowed in paths'
  const segments = pathname.split('/').slice(1)
  for (const [index, segment] of segments.entries()) {
    if (segment === '' && index < segments.length - 1) return 'empty path segments are not allowed'
    const dots = segment.replace(/%2e/gi, '.')
    if (dots === '.' || dots === '..') return 'dot segments are not allowed in paths'
  }
  return null
}

// decodeURIComponent refuses a lone `%`, bytes that are not UTF-8, overlong forms and surrogates.
function isWellEncoded(text: string): boolean {
  try {
    decodeURIComponent(text)
    return true
  } catch {
    return false
  }
}
