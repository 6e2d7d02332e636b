'use client'

import { useEffect, useState } from 'react'
import { isSearching, type KnownRefusals, withMap } from '@/components/configurator/refusals'
import { useApiQuery } from '@/components/use-api-query'
import type { ApiCredentials } from '@/lib/client/api-client'

/** How often the page asks again while the server still searches a map. */
const SEARCH_REFRESH_MS = 1000

/**
 * Where the model refuses values at the session's values of `modelVersion` (docs/refused-values.md),
 * asked for once `isWanted` (as the model's details: no newer values on their way), and again
 * while searches run. Answers the last map and every parameter's map known so far.
 */
export function useRefusedValues(
  sessionId: string | null,
  modelVersion: number,
  isWanted: boolean,
  credentials: ApiCredentials | undefined,
) {
  const query = useApiQuery(
    'getRefusedValues',
    { params: { sessionId: sessionId ?? '' }, credentials },
    {
      keySuffix: [modelVersion],
      enabled: sessionId !== null && modelVersion > 0 && isWanted,
      staleTime: Infinity,
      refetchInterval: ({ state: { data } }) => (data && isSearching(data) ? SEARCH_REFRESH_MS : false),
    },
  )
  const [known, setKnown] = useState<Record<string, KnownRefusals>>({})
  useEffect(() => {
    if (query.data) setKnown((current) => withMap(current, query.data))
  }, [query.data])
  return { map: query.data ?? null, known }
}
