import { AppError } from '@/lib/api/errors'
import { limits } from '@/lib/api/rate-limit'
import type { Principal } from '@/lib/auth/authenticate'
import { findApplicationByKey } from '@/lib/auth/find-application-by-key'
import { isAllowedOrigin } from '@/lib/auth/is-allowed-origin'
import { issueToken } from '@/lib/auth/tokens'
import { env } from '@/lib/env'

export interface IssueAnonymousTokenOptions {
  apiKey: string | null
  origin: string | null
  /** The bearer token sent along, if it was valid: a renewal. */
  principal: Principal | null
  clientAddress: string
}

/**
 * The short-lived token an end customer's browser uses on session endpoints. Presenting the
 * customer's current anonymous token of the same application renews it: the new token keeps
 * the identity, so the customer keeps its sessions. Anything else (no token, an expired one,
 * another application's or another kind) starts a new identity rather than failing the embed.
 */
export async function issueAnonymousToken({ apiKey, origin, principal, clientAddress }: IssueAnonymousTokenOptions) {
  if (!apiKey) throw new AppError('unauthorized', 'X-API-KEY header is required')
  await limits.anonymousTokensByAddress.consume(clientAddress)
  const application = await findApplicationByKey(apiKey)
  await limits.anonymousTokensByKey.consume(application.id)
  if (origin !== null && !isAllowedOrigin(origin, application.domain)) {
    throw new AppError('forbidden', `Origin ${origin} is not the application's domain`)
  }
  const isRenewal = principal?.kind === 'anonymous' && principal.application.id === application.id
  return issueToken({
    kind: 'anonymous',
    applicationId: application.id,
    identityId: isRenewal ? principal.identityId : undefined,
    ttlSeconds: env.ANONYMOUS_TOKEN_TTL_SECONDS,
  })
}
