import { findApplicationByKey } from '@/lib/auth/find-application-by-key'
import { issueToken } from '@/lib/auth/tokens'
import { env } from '@/lib/env'

/** The token only a shop's back end can get, since it needs the secret key. */
export async function issueServerToken(key: string, secretKey: string) {
  const application = await findApplicationByKey(key, secretKey)
  return issueToken({ kind: 'server', applicationId: application.id, ttlSeconds: env.SERVER_TOKEN_TTL_SECONDS })
}
