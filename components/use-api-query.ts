'use client'

import { useQuery, type UseQueryOptions } from '@tanstack/react-query'
import {
  callApiJson,
  operationKey,
  operationMethod,
  type CallInit,
  type InputArgs,
  type OperationInput,
  type OperationResult,
} from '@/lib/endpoints/client'
import type { OperationId } from '@/lib/endpoints/operations'

export type ApiQueryOptions<K extends OperationId, TData = OperationResult<K>> = Omit<
  UseQueryOptions<OperationResult<K>, Error, TData>,
  'queryKey' | 'queryFn'
> & {
  /** What else the answer depends on, after the operation's own key (the model version it is asked for). */
  keySuffix?: readonly unknown[]
}

/**
 * Operation K's JSON answer as a query. Its key is operationKey's (so invalidating a prefix
 * refreshes it), then the JSON body it sends (a POST that opens a session), never its credentials.
 * A GET is abandoned when nothing shows it any more; a POST runs to its end, as it may have opened something.
 */
export function useApiQuery<K extends OperationId, TData = OperationResult<K>>(
  id: K,
  init: CallInit<K>,
  { keySuffix = [], ...options }: ApiQueryOptions<K, TData> = {},
) {
  const args = [init] as InputArgs<K, OperationInput<K>>
  return useQuery({
    queryKey: [...operationKey(id, ...args), ...(init.json === undefined ? [] : [init.json]), ...keySuffix],
    queryFn: (context) =>
      callApiJson(
        id,
        ...([{ ...init, ...(operationMethod(id) === 'GET' && { signal: context.signal }) }] as InputArgs<
          K,
          CallInit<K>
        >),
      ),
    ...options,
  })
}
