/**
 * Why a raw request path (as the client sent it, before any URL normalization) is refused:
 * dot segments, also percent-encoded, backslashes and empty segments. URL parsers resolve
 * `a/%2e%2e/b` to `b` silently, so the check must see the path before they do.
 */
export function rawPathProblem(rawUrl: string): string | null {
  const pathname = rawUrl.split(/[?#]/, 1)[0] ?? ''
  if (pathname.includes('\\') || /%5c/i.test(pathname)) return 'backslashes are not allowed in paths'
  const segments = pathname.split('/').slice(1)
  for (const [index, segment] of segments.entries()) {
    if (segment === '' && index < segments.length - 1) return 'empty path segments are not allowed'
    const dots = segment.replace(/%2e/gi, '.')
    if (dots === '.' || dots === '..') return 'dot segments are not allowed in paths'
  }
  return null
}
