'use client'

import { useQuery } from '@tanstack/react-query'
import type { ApiCredentials } from '@/lib/client/api-client'
import { callApiJson, operationKey, type OperationResult } from '@/lib/endpoints/client'

/** Who the page talks to the API as: the signed-in user's cookie, or a shop application's anonymous token. */
export type SessionAuth = { kind: 'cookie' } | { kind: 'application'; apiKey: string }

/**
 * The credentials for session calls; `undefined` until they are known. The anonymous token is
 * renewed before it expires by presenting the current one, which keeps the customer's identity
 * and so its session (also in a background tab: an expired token would start a new identity).
 */
export function useApiCredentials(auth: SessionAuth) {
  const apiKey = auth.kind === 'application' ? auth.apiKey : null
  const token = useQuery({
    // Not useApiQuery: each renewal presents the token it renews, read from this query's own data.
    queryKey: [...operationKey('issueAnonymousToken'), apiKey],
    queryFn: ({ client, queryKey }) => {
      const current = client.getQueryData<OperationResult<'issueAnonymousToken'>>(queryKey)
      return callApiJson('issueAnonymousToken', {
        headers: { 'x-api-key': apiKey ?? '' },
        credentials: { token: current?.accessToken },
      })
    },
    enabled: apiKey !== null,
    staleTime: Infinity,
    refetchInterval: (query) => Math.max((query.state.data?.expiresIn ?? 600) * 800, 30_000),
    refetchIntervalInBackground: true,
  })
  const credentials: ApiCredentials | undefined =
    apiKey === null ? {} : token.data ? { token: token.data.accessToken, apiKey } : undefined
  return { credentials, error: token.error }
}
