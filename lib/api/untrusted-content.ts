/**
 * Headers for content this server did not write (uploaded files, extra services' answers):
 * the browser takes the declared type as it is and never runs the content as a page of
 * this origin.
 */
export const UNTRUSTED_CONTENT_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
} as const
