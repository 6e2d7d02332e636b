import { z } from 'zod'

/**
 * An email address as browsers' type=email accepts it (HTML5): a single-label domain is fine,
 * so the default admin@localhost, and addresses on an intranet, can sign in.
 */
export const ZEmail = z.email({ pattern: z.regexes.html5Email })
