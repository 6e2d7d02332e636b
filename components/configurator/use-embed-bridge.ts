'use client'

import { useEffect, useMemo, useRef } from 'react'
import { presetValues } from '@/components/configurator/presets'
import { quoteOf } from '@/lib/manufacturing/quote'
import type { Values } from '@/components/configurator/share-values'
import type { ConfigSession, ObjectInfo } from '@/components/configurator/use-config-session'
import { ApiError, type ApiCredentials } from '@/lib/client/api-client'
import {
  EMBED_PROTOCOL,
  EMBED_VERSION,
  type EmbedMessage,
  framingOrigin,
  hostMessageOf,
  type HostMessage,
} from '@/lib/embed/messages'
import { callApiJson } from '@/lib/endpoints/client'
import type { ParameterSet } from '@/lib/sessions/schemas'
import type { RefusedValues } from '@/lib/cad/refused-values-schema'
import type { ArOpener } from '@/components/configurator/ar-view'

export interface EmbedBridgeState {
  session: ConfigSession | null
  credentials: ApiCredentials | undefined
  /** The parameter set of the model built last. */
  parameters: ParameterSet | null
  modelVersion: number
  fieldErrors: Record<string, string>
  objectInfo: ObjectInfo | null
  /** Why the model of `modelVersion` did not build, in words a customer reads; null when it built. */
  failure: string | null
  /** Why the shop's mount() options are refused (they stop the mount); null when they are not. */
  refusal: string | null
  /** Where the model refuses values at the session's values, as the server answered last. */
  refusedValues: RefusedValues | null
  setValues: (values: Values) => void
  /** "View in your space", for the shop's `openAr()`. */
  ar: {
    /** Why AR cannot open now, in words a customer reads; null when it can. */
    unavailable: string | null
    opener: ArOpener | null
    open: () => void
  }
}

type Outgoing = EmbedMessage extends infer M ? (M extends unknown ? Omit<M, 'protocol' | 'version'> : never) : never

/**
 * The embed's side of the page messages (lib/embed/messages.ts): only when the framing page's
 * origin is the application's domain, and only to and from that exact origin.
 */
export function useEmbedBridge(domain: string | undefined, state: EmbedBridgeState): void {
  const hostOrigin = useMemo(
    () =>
      domain && typeof window !== 'undefined' && window.parent !== window
        ? framingOrigin(domain, Array.from(window.location.ancestorOrigins ?? []), document.referrer)
        : null,
    [domain],
  )
  const stateRef = useRef(state)
  stateRef.current = state
  /** Requests a later change completes: each with the model version it was asked at. */
  const waiting = useRef<{ requestId: string; keys: string[]; version: number }[]>([])

  const post = useMemo(
    () => (message: Outgoing) => {
      if (hostOrigin)
        window.parent.postMessage({ protocol: EMBED_PROTOCOL, version: EMBED_VERSION, ...message }, hostOrigin)
    },
    [hostOrigin],
  )

  const { session, parameters, modelVersion, fieldErrors, objectInfo, failure, refusal, refusedValues } = state
  useEffect(() => {
    if (refusal) post({ type: 'error', requestId: null, code: 'bad_option', message: refusal })
  }, [refusal, post])

  const sessionId = session?.id
  const isReady = sessionId !== undefined && parameters !== null && modelVersion > 0
  useEffect(() => {
    if (isReady) post({ type: 'ready', sessionId, parameters: stateRef.current.parameters! })
  }, [isReady, sessionId, post])

  // Each map the server answers, so that a shop's own controls can show it (docs/refused-values.md).
  const refusedValuesJson = refusedValues && JSON.stringify(refusedValues)
  useEffect(() => {
    if (isReady && refusedValuesJson)
      post({ type: 'refusedValues', ...(JSON.parse(refusedValuesJson) as RefusedValues) })
  }, [isReady, refusedValuesJson, post])

  // After each build, once its figures (or its failure) are known, and again when the final figures replace the estimate.
  useEffect(() => {
    if (!parameters || modelVersion === 0 || (!objectInfo && failure === null && Object.keys(fieldErrors).length === 0))
      return
    const done = waiting.current.filter(
      ({ version, keys }) => version < modelVersion || keys.some((key) => key in fieldErrors),
    )
    waiting.current = waiting.current.filter((request) => !done.includes(request))
    post({
      type: 'change',
      values: Object.fromEntries(Object.entries(parameters).map(([key, parameter]) => [key, parameter.value])),
      valid: failure === null && Object.keys(fieldErrors).length === 0,
      failure,
      errors: fieldErrors,
      ...(objectInfo ? quoteOf(objectInfo) : { weight: null, price: null, printTimeSeconds: null, estimate: false }),
      requestIds: done.map(({ requestId }) => requestId),
    })
  }, [parameters, modelVersion, fieldErrors, objectInfo, failure, post])

  useEffect(() => {
    if (!hostOrigin) return
    const refuse = (requestId: string, code: string, message: string) =>
      post({ type: 'error', requestId, code, message })
    const setValues = (requestId: string, values: Values) => {
      const { parameters: current, modelVersion: version, setValues: set } = stateRef.current
      const unknown = Object.keys(values).filter((key) => !current || !(key in current))
      if (unknown.length > 0)
        return refuse(requestId, 'unknown_parameter', `Not parameters of this model: ${unknown.join(', ')}`)
      waiting.current.push({ requestId, keys: Object.keys(values), version })
      set(values)
    }
    const handle = async (message: HostMessage) => {
      const { session: current, credentials, parameters: currentParameters } = stateRef.current
      if (!current || !currentParameters)
        return refuse(message.requestId, 'not_ready', 'The configurator is still opening; wait for its ready message')
      try {
        switch (message.type) {
          case 'set':
            return setValues(message.requestId, message.values)
          case 'applyPreset': {
            const presets = await callApiJson('listPresets', { params: { sessionId: current.id }, credentials })
            const preset = presets.find((candidate) => candidate.name === message.name)
            if (!preset) return refuse(message.requestId, 'not_found', `No preset named ${message.name}`)
            return setValues(message.requestId, presetValues(currentParameters, preset))
          }
          case 'openAr': {
            const { unavailable, opener, open } = stateRef.current.ar
            if (unavailable !== null || opener === null)
              return refuse(message.requestId, 'ar_unavailable', unavailable ?? 'The configurator is still opening')
            open()
            return post({ type: 'ar', requestId: message.requestId, opened: opener })
          }
          case 'snapshot': {
            const snapshot = await callApiJson('createSnapshot', { params: { sessionId: current.id }, credentials })
            return post({ type: 'snapshot', requestId: message.requestId, snapshot })
          }
        }
      } catch (error) {
        refuse(
          message.requestId,
          error instanceof ApiError ? error.code : 'failed',
          error instanceof Error ? error.message : String(error),
        )
      }
    }
    const receive = (event: MessageEvent) => {
      const message = hostMessageOf(event, window.parent, hostOrigin)
      if (message) void handle(message)
    }
    window.addEventListener('message', receive)
    return () => window.removeEventListener('message', receive)
  }, [hostOrigin, post])
}
