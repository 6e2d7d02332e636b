/** `attachment; filename="..."` safe for any name: an ASCII fallback plus the RFC 5987 UTF-8 form. */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}
