import { AppError } from '@/lib/api/errors'
import { findApplicationByKey } from '@/lib/auth/find-application-by-key'
import { isAllowedOrigin } from '@/lib/auth/is-allowed-origin'
import { issueToken } from '@/lib/auth/tokens'
import { env } from '@/lib/env'

export interface IssueAnonymousTokenOptions {
  apiKey: string | null
  origin: string | null
}

/** The short-lived token an end customer's browser uses on session endpoints. */
export async function issueAnonymousToken({ apiKey, origin }: IssueAnonymousTokenOptions) {
  if (!apiKey) throw new AppError('unauthorized', 'X-API-KEY header is required')
  const application = await findApplicationByKey(apiKey)
  if (origin !== null && !isAllowedOrigin(origin, application.domain)) {
    throw new AppError('forbidden', `Origin ${origin} is not the application's domain`)
  }
  return issueToken({ kind: 'anonymous', applicationId: application.id, ttlSeconds: env.ANONYMOUS_TOKEN_TTL_SECONDS })
}
