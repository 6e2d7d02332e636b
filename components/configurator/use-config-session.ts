'use client'

import { useCallback, useEffect, useRef, useState } from 'react'
import { decodeShareQuery, type Values } from '@/components/configurator/share-values'
import { useApiQuery } from '@/components/use-api-query'
import type { ParameterValue } from '@/lib/cad/engine'
import { ApiError, type ApiCredentials } from '@/lib/client/api-client'
import { PREFETCH_INTERVAL_MS, sliderCandidates } from '@/lib/client/prefetch'
import { callApiJson, type OperationResult } from '@/lib/endpoints/client'
import type { ParameterSet } from '@/lib/sessions/schemas'

export const UPDATE_DELAY_MS = 250

export type ConfigSession = OperationResult<'createSession'>
export type ObjectInfo = OperationResult<'getObjectInfo'>
export type SessionLog = OperationResult<'getLog'>

/**
 * A configurator session in the browser: opens it (applying the values of a shared link
 * before the first model is shown), keeps what the controls show apart from what the server
 * built, and sends changes ~250 ms after the last one, one request at a time. While a slider
 * moves, it sends candidates of where it will stop every PREFETCH_INTERVAL_MS, so that the model
 * of the value let go on is built already.
 */
export interface DraftPreview {
  /** The owner's draft link: a session of the configurator's draft, not of its current release. */
  draft?: boolean
  /** The draft's version: when it changes, the parameters are read again and the model built anew. */
  sourceVersion?: string
}

export function useConfigSession(
  configuratorId: string,
  credentials: ApiCredentials | undefined,
  sharedQuery: string,
  { draft: isDraft = false, sourceVersion }: DraftPreview = {},
) {
  const credentialsRef = useRef(credentials)
  credentialsRef.current = credentials
  const [parameters, setParameters] = useState<ParameterSet | null>(null)
  const [draft, setDraft] = useState<Values>({})
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({})
  const [requestError, setRequestError] = useState<unknown>(null)
  const [modelVersion, setModelVersion] = useState(0)
  const [isUpdating, setIsUpdating] = useState(false)
  const pending = useRef<Values>({})
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const inFlight = useRef(false)
  const pendingCandidates = useRef<Values[]>([])
  const candidateTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const slid = useRef<{ key: string; value: number } | null>(null)

  const session = useApiQuery(
    'createSession',
    { json: { configuratorId, ...(isDraft && { draft: true }) }, credentials },
    {
      enabled: credentials !== undefined,
      staleTime: Infinity,
      gcTime: Infinity,
    },
  )
  const sessionId = session.data?.id ?? null

  const putValues = useCallback(
    async (values: Values): Promise<ParameterSet> =>
      callApiJson('setParameters', {
        params: { sessionId: sessionId! },
        json: setBody(values),
        credentials: credentialsRef.current,
      }),
    [sessionId],
  )

  const sendCandidates = useCallback(() => {
    candidateTimer.current = null
    const candidates = pendingCandidates.current
    pendingCandidates.current = []
    // Nothing pending: the values were sent, and the candidates are moot.
    if (candidates.length === 0 || Object.keys(pending.current).length === 0) return
    const json = { candidates: candidates.map(setBody) }
    callApiJson('prefetchModels', {
      params: { sessionId: sessionId! },
      json,
      credentials: credentialsRef.current,
    }).catch(() => {})
  }, [sessionId])

  /** Sends the values; on 422 sends the accepted rest again (a 422 stores nothing) and answers which were refused and why. */
  const applyValues = useCallback(
    async (values: Values): Promise<{ built: ParameterSet | null; refused: Record<string, string> }> => {
      try {
        return { built: await putValues(values), refused: {} }
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 422) throw error
        // A parameter's field is its key; the message alone goes beside its control.
        const refused = Object.fromEntries(
          error.fields.flatMap(({ path: [key], message }) =>
            typeof key === 'string' && Object.hasOwn(values, key) ? [[key, message]] : [],
          ),
        )
        if (Object.keys(refused).length === 0) throw error
        const accepted = withoutKeys(values, Object.keys(refused))
        const built = Object.keys(accepted).length > 0 ? await putValues(accepted) : null
        return { built, refused }
      }
    },
    [putValues],
  )

  const showResult = useCallback(
    (sent: Values, { built, refused }: { built: ParameterSet | null; refused: Record<string, string> }) => {
      setFieldErrors((errors) => ({ ...withoutKeys(errors, Object.keys(sent)), ...refused }))
      if (!built) return
      setParameters(built)
      // Controls keep what the customer typed for values still on their way or refused, so the message
      // sits beside them. Read now: the updater runs at the next render, after the next PUT took `pending`.
      const kept = new Set([...Object.keys(pending.current), ...Object.keys(refused)])
      setDraft((current) => {
        const next: Values = {}
        for (const [key, parameter] of Object.entries(built))
          next[key] = kept.has(key) ? (current[key] ?? parameter.value) : parameter.value
        return next
      })
      setModelVersion((version) => version + 1)
    },
    [],
  )

  useEffect(() => {
    if (!sessionId) return
    let isCurrent = true
    void (async () => {
      try {
        const initial = await callApiJson('getParameters', {
          params: { sessionId },
          credentials: credentialsRef.current,
        })
        const shared = decodeShareQuery(initial, new URLSearchParams(sharedQuery))
        const result = Object.keys(shared).length > 0 ? await applyValues(shared) : { built: null, refused: {} }
        if (!isCurrent) return
        setDraft(
          Object.fromEntries(Object.entries(initial).map(([key, parameter]) => [key, shared[key] ?? parameter.value])),
        )
        showResult(shared, { built: result.built ?? initial, refused: result.refused })
      } catch (error) {
        if (isCurrent) setRequestError(error)
      }
    })()
    return () => {
      isCurrent = false
    }
  }, [sessionId, sharedQuery, applyValues, showResult, sourceVersion])

  const flush = useCallback(async () => {
    timer.current = null
    if (candidateTimer.current) clearTimeout(candidateTimer.current)
    candidateTimer.current = null
    if (inFlight.current || Object.keys(pending.current).length === 0) return
    inFlight.current = true
    const sent = pending.current
    pending.current = {}
    try {
      showResult(sent, await applyValues(sent))
      setRequestError(null)
    } catch (error) {
      setRequestError(error)
    } finally {
      inFlight.current = false
      if (Object.keys(pending.current).length > 0) void flush()
      else setIsUpdating(false)
    }
  }, [applyValues, showResult])

  const changeValues = useCallback(
    (values: Values) => {
      setDraft((current) => ({ ...current, ...values }))
      pending.current = { ...pending.current, ...values }
      setIsUpdating(true)
      if (timer.current) clearTimeout(timer.current)
      timer.current = setTimeout(() => void flush(), UPDATE_DELAY_MS)
    },
    [flush],
  )

  /** Sends what is pending now, without the pause that waits for further changes. */
  const commit = useCallback(() => {
    if (!timer.current) return
    clearTimeout(timer.current)
    void flush()
  }, [flush])

  const setValue = useCallback(
    (key: string, value: ParameterValue) => {
      changeValues({ [key]: value })
      const parameter = parameters?.[key]
      if (parameter?.type !== 'float' || typeof value !== 'number') return
      const previous = slid.current?.key === key ? slid.current.value : undefined
      slid.current = { key, value }
      pendingCandidates.current = sliderCandidates(parameter, value, previous).map((candidate) => ({
        ...pending.current,
        [key]: candidate,
      }))
      candidateTimer.current ??= setTimeout(sendCandidates, PREFETCH_INTERVAL_MS)
    },
    [changeValues, parameters, sendCandidates],
  )
  /** Sets several values at once (a preset), sent without waiting for further changes. */
  const setValues = useCallback(
    (values: Values) => {
      changeValues(values)
      commit()
    },
    [changeValues, commit],
  )
  const resetToDefaults = useCallback(() => {
    if (parameters)
      changeValues(Object.fromEntries(Object.entries(parameters).map(([key, parameter]) => [key, parameter.default])))
  }, [changeValues, parameters])

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
      if (candidateTimer.current) clearTimeout(candidateTimer.current)
    },
    [],
  )

  return {
    session: session.data ?? null,
    sessionError: session.error,
    parameters,
    draft,
    fieldErrors,
    requestError,
    modelVersion,
    isUpdating,
    setValue,
    setValues,
    commit,
    resetToDefaults,
  }
}

/** A set-parameters body: `{key: {value}}`. */
function setBody(values: Values): Record<string, { value: ParameterValue }> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value }]))
}

function withoutKeys<T>(record: Record<string, T>, keys: readonly string[]): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)))
}
