'use client'

import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useApiQuery } from '@/components/use-api-query'
import type { ApiCredentials } from '@/lib/client/api-client'
import { operationKey } from '@/lib/endpoints/client'
import { isSlicePending } from '@/components/configurator/quote'

const ESTIMATE_REFRESH_MS = 1000
/**
 * How long a drawn model stays, with no newer values sent, before its details are asked for.
 * Its print figures take a worker and a core for a while; asked at once, a customer stepping
 * through values had each next model built beside them, twice as slow (bench/customer.ts).
 */
const SETTLE_MS = 250

/**
 * Object info and log of the session's model `modelVersion`, asked for once `isWanted` (the
 * viewer has drawn that model and no newer values are on their way) for SETTLE_MS: asked for
 * together with the model's download, they slowed it by half a second on a busy server. The
 * first model's are asked for at once.
 */
export function useModelDetails(
  sessionId: string | null,
  modelVersion: number,
  isWanted: boolean,
  credentials: ApiCredentials | undefined,
) {
  const queryClient = useQueryClient()
  const [settledVersion, setSettledVersion] = useState(0)
  useEffect(() => {
    if (!isWanted) return
    const timer = setTimeout(() => setSettledVersion(modelVersion), SETTLE_MS)
    return () => clearTimeout(timer)
  }, [isWanted, modelVersion])
  // The first model's at once, beside its download: no model of the customer's is on its way yet,
  // and a shop's first price waited for the draw and the pause (bench/first-model.ts).
  const enabled =
    sessionId !== null && (modelVersion === 1 || (modelVersion > 1 && isWanted && settledVersion === modelVersion))
  const input = { params: { sessionId: sessionId ?? '' } }
  const objectInfo = useApiQuery(
    'getObjectInfo',
    { ...input, credentials },
    {
      keySuffix: [modelVersion],
      enabled,
      staleTime: Infinity,
      // The print figures are the preview's until the final quality is built in the background, and its slice follows.
      refetchInterval: ({ state: { data } }) =>
        data && (data.print.estimate || isSlicePending(data)) ? ESTIMATE_REFRESH_MS : false,
    },
  )
  const log = useApiQuery(
    'getLog',
    { ...input, credentials },
    {
      keySuffix: [modelVersion],
      enabled,
      staleTime: Infinity,
    },
  )
  useEffect(() => {
    // Only the newest version is ever read again.
    for (const queryKey of [
      operationKey('getObjectInfo', { params: { sessionId: sessionId ?? '' } }),
      operationKey('getLog', { params: { sessionId: sessionId ?? '' } }),
    ]) {
      queryClient.removeQueries({ queryKey, predicate: (query) => query.queryKey[queryKey.length] !== modelVersion })
    }
  }, [queryClient, sessionId, modelVersion])
  return { objectInfo: objectInfo.data ?? null, objectInfoError: objectInfo.error, log: log.data ?? null }
}
