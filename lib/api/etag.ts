/** Whether `If-None-Match` names this strong ETag (or `*`), so the client's copy is current. */
export function isNotModified(request: Request, etag: string): boolean {
  const header = request.headers.get('if-none-match')
  if (header === null) return false
  return header.split(',').some((candidate) => {
    const tag = candidate.trim()
    return tag === '*' || tag.replace(/^W\//, '') === etag
  })
}
