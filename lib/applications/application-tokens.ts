import { timingSafeEqual } from 'node:crypto'
import { AppError } from '@/lib/api/errors'
import { limits } from '@/lib/api/rate-limit'
import type { Principal } from '@/lib/auth/authenticate'
import { issueToken } from '@/lib/auth/tokens'
import { belongsToDomain } from '@/lib/applications/application-domain'
import { db } from '@/lib/db'
import { env } from '@/lib/env'

/** This machine's own names: a browser call from them is always allowed, for development. */
export const DEVELOPMENT_HOSTS = ['localhost', '127.0.0.1', '[::1]']

function isSame(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** The application whose key is `key` (and, when given, whose secret is `secretKey`). */
async function findApplicationByKey(key: string, secretKey?: string) {
  const application = await db.application.findUnique({ where: { key } })
  const isValid =
    application !== null &&
    isSame(application.key, key) &&
    (secretKey === undefined || isSame(application.secretKey, secretKey))
  if (!isValid)
    throw new AppError('unauthorized', secretKey === undefined ? 'Unknown X-API-KEY' : 'Key or secret key is wrong')
  return application
}

/**
 * A browser call's Origin must belong to the application's domain, or be this server's own (its
 * embed page, framed by the shop, calls from here); localhost is always allowed for development.
 */
function isAllowedOrigin(origin: string, domain: string, host: string | null): boolean {
  if (host !== null && URL.parse(origin)?.host === host.toLowerCase()) return true
  return [...DEVELOPMENT_HOSTS, domain].some((allowed) => belongsToDomain(origin, allowed))
}

export interface IssueAnonymousTokenOptions {
  apiKey: string | null
  origin: string | null
  /** The Host the request was sent to: an Origin on it is this server's own page. */
  host: string | null
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
export async function issueAnonymousToken({
  apiKey,
  origin,
  host,
  principal,
  clientAddress,
}: IssueAnonymousTokenOptions) {
  if (!apiKey) throw new AppError('unauthorized', 'X-API-KEY header is required')
  await limits.anonymousTokensByAddress.consume(clientAddress)
  const application = await findApplicationByKey(apiKey)
  await limits.anonymousTokensByKey.consume(application.id)
  if (application.publicDemo && !env.PUBLIC_DEMOS)
    throw new AppError('forbidden', 'The public demos are switched off on this server (PUBLIC_DEMOS=false)')
  if (origin !== null && !isAllowedOrigin(origin, application.domain, host)) {
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

/** The token only a shop's back end can get, since it needs the secret key. */
export async function issueServerToken({ key, secretKey }: { key: string; secretKey: string }) {
  const application = await findApplicationByKey(key, secretKey)
  return issueToken({ kind: 'server', applicationId: application.id, ttlSeconds: env.SERVER_TOKEN_TTL_SECONDS })
}
