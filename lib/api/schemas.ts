import { z } from 'zod'

export const ZDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .describe('YYYY-MM-DD HH:MM:SS in the server time zone')

/**
 * An email address as browsers' type=email accepts it (HTML5): a single-label domain is fine,
 * so the default admin@localhost, and addresses on an intranet, can sign in.
 */
export const ZEmail = z.email({ pattern: z.regexes.html5Email })

export const ZUuidResponse = z.object({ UUID: z.uuid() })
