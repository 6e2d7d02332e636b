import { blobStore } from '@/lib/storage/blob-store'

/**
 * Headers for content this server did not write (uploaded files, extra services' answers):
 * the browser takes the declared type as it is and never runs the content as a page of
 * this origin.
 */
export const UNTRUSTED_CONTENT_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
} as const

/** A stored file's content with its declared type and length, as content this server did not write. */
export async function storedFileResponse(
  file: { blobHash: string; contentType: string; size: number },
  headers: Record<string, string> = {},
): Promise<Response> {
  return new Response(await blobStore.read(file.blobHash), {
    headers: {
      ...headers,
      'content-type': file.contentType,
      'content-length': String(file.size),
      ...UNTRUSTED_CONTENT_HEADERS,
    },
  })
}
