import { z } from 'zod'

/**
 * An email address as browsers' type=email accepts it (HTML5): a single-label domain is fine,
 * so the default admin@localhost, and addresses on an intranet, can sign in. At most 254
 * characters, the longest that mail can be delivered to (RFC 5321).
 */
export const ZEmail = z.email({ pattern: z.regexes.html5Email }).max(254)
