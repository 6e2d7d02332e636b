'use client'

import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react'
import { BuildingIndicator, useSince } from '@/components/configurator/building-indicator'
import { ModelDownloads } from '@/components/configurator/model-downloads'
import { formatPrice, formatWeight, ModelFacts } from '@/components/configurator/model-facts'
import { quoteOf } from '@/lib/manufacturing/quote'
import { ParameterControls } from '@/components/configurator/parameter-controls'
import { Presets } from '@/components/configurator/presets'
import { encodeShareQuery, type Values } from '@/components/configurator/share-values'
import { ShareLink, useShareLink } from '@/components/configurator/share-link'
import { ArButton, useArDevice } from '@/components/configurator/ar-button'
import { AR_OPENERS } from '@/components/configurator/ar-view'
import { useApiCredentials, type SessionAuth } from '@/components/configurator/use-api-credentials'
import { useEmbedLayout } from '@/components/configurator/use-embed-layout'
import { useUndo } from '@/components/configurator/use-undo'
import {
  type DraftPreview,
  type ObjectInfo,
  type SessionLog,
  useConfigSession,
} from '@/components/configurator/use-config-session'
import { useEmbedBridge } from '@/components/configurator/use-embed-bridge'
import { useModelDetails } from '@/components/configurator/use-model-details'
import { refusalsAt } from '@/components/configurator/refusals'
import { useRefusedValues } from '@/components/configurator/use-refused-values'
import { modelUrl, useRendererScene } from '@/components/configurator/use-renderer-scene'
import { Button } from '@/components/ui/button'
import { ErrorMessage } from '@/components/ui/error-message'
import { Spinner } from '@/components/ui/spinner'
import { preloadViewer, Viewer } from '@/components/viewer/viewer'
import { prefetchModel } from '@/components/viewer/model-download'
import type { ViewerStatus } from '@/components/viewer/model-viewer'
import { cadSystem } from '@/lib/cad/engines'
import { ApiError } from '@/lib/client/api-client'
import { callApiJson } from '@/lib/endpoints/client'
import type { ModelPart } from '@/lib/render/list-parts'
import type { SceneSettings } from '@/lib/renderers/schemas'

export interface SidePanelContext {
  sessionId: string
  rendererId: string | null
  /** The renderer's stored scene settings. */
  settings: SceneSettings | null
  /** The parts of the model shown last. */
  parts: ModelPart[]
}

export interface ConfiguratorProps {
  configuratorId: string
  auth: SessionAuth
  /** The page's query string at load: the values of a shared link. */
  initialQuery: string
  canDownloadFinal: boolean
  /** Names the downloaded files. */
  productName: string
  /** The configurator's CAD system, which reads its log. */
  cadType: string
  header?: ReactNode
  /** Shown instead of the session's own scene settings (the studio's scene editor previews its draft). */
  sceneOverride?: SceneSettings
  /** Replaces the customer controls (the studio's scene editor). */
  sidePanel?: (context: SidePanelContext) => ReactNode
  /** The designer's own preview: the current values may be saved as a preset. */
  canSavePresets?: boolean
  /** Embedded for this application domain: talks to the framing page when it is on it (use-embed-bridge.ts). */
  embedDomain?: string
  /** The studio editor's preview of the draft. */
  preview?: DraftPreview
  /** Told each model's log once it is read (the editor marks its lines). */
  onLog?: (log: SessionLog) => void
}

/** The live configurator: the product in 3D beside its controls, what it measures and its downloads. */
export function Configurator({
  configuratorId,
  auth,
  initialQuery,
  canDownloadFinal,
  productName,
  cadType,
  header,
  sceneOverride,
  sidePanel,
  canSavePresets = false,
  embedDomain,
  preview,
  onLog,
}: ConfiguratorProps) {
  const { credentials, error: credentialsError } = useApiCredentials(auth)
  const [sharedQuery] = useState(initialQuery)
  const [viewerStatus, setViewerStatus] = useState<ViewerStatus>({ state: 'loading' })
  const [shownVersion, setShownVersion] = useState(0)
  /** The version of the model on screen: the last that was drawn. */
  const [drawnVersion, setDrawnVersion] = useState(0)
  const configSession = useConfigSession(configuratorId, credentials, sharedQuery, preview)
  const { session, parameters, draft, modelVersion } = configSession
  const scene = useRendererScene(session, credentials)
  // The viewer's code and the first model's download start together, not one after the other.
  useEffect(preloadViewer, [])
  const glbUrl = session && modelUrl(session, 'glb')
  useEffect(() => {
    if (glbUrl && modelVersion === 1) prefetchModel(glbUrl, 1)
  }, [glbUrl, modelVersion])
  const settings = sceneOverride ?? scene.settings
  const isModelShown = scene.rendererId === null || scene.error !== null || shownVersion >= modelVersion
  const details = useModelDetails(
    session?.id ?? null,
    modelVersion,
    isModelShown && !configSession.isUpdating,
    credentials,
  )
  const refused = useRefusedValues(
    session?.id ?? null,
    modelVersion,
    isModelShown && !configSession.isUpdating,
    credentials,
  )
  const refusals = useMemo(
    () =>
      parameters
        ? refusalsAt(
            refused.known,
            Object.fromEntries(
              Object.entries(parameters).map(([key, parameter]) => [key, draft[key] ?? parameter.value]),
            ),
          )
        : {},
    [refused.known, parameters, draft],
  )
  useEffect(() => {
    if (details.log) onLog?.(details.log)
  }, [details.log, onLog])
  const [parts, setParts] = useState<ModelPart[]>([])
  const showViewerStatus = useCallback((status: ViewerStatus) => {
    setViewerStatus(status)
    if (status.state !== 'loading') setShownVersion(status.modelVersion)
    if (status.state === 'ready') {
      setParts(status.parts)
      setDrawnVersion(status.modelVersion)
    }
  }, [])
  const isBuilding = configSession.isUpdating || (modelVersion > 0 && viewerStatus.state === 'loading')
  const buildingSince = useSince(isBuilding)
  const { canUndo, undo, beginGesture } = useUndo(parameters, configSession.setValues)
  /** Values set at once (a preset, a message from the shop's page): one step of undo, however they were asked for. */
  const setValuesAsStep = (values: Values) => {
    beginGesture()
    configSession.setValues(values)
  }
  // The values of the versions since the one drawn, so that the customer can go back to the model on screen.
  const [versionValues, setVersionValues] = useState(new Map<number, Values>())
  useEffect(() => {
    if (!parameters) return
    const values = Object.fromEntries(Object.entries(parameters).map(([key, parameter]) => [key, parameter.value]))
    setVersionValues((known) =>
      new Map([...known].filter(([version]) => version >= drawnVersion)).set(modelVersion, values),
    )
  }, [parameters, modelVersion, drawnVersion])
  const drawnValues = versionValues.get(drawnVersion)
  // Going back to the model drawn supersedes the build under way, which stops once nobody waits for it.
  const cancelBuild =
    drawnValues && JSON.stringify(drawnValues) !== JSON.stringify({ ...drawnValues, ...draft })
      ? () => configSession.setValues(drawnValues)
      : null
  // The last figures stay while new ones are on their way, marked as not the current values'.
  const [lastInfo, setLastInfo] = useState<ObjectInfo | null>(null)
  useEffect(() => {
    if (details.objectInfo) setLastInfo(details.objectInfo)
  }, [details.objectInfo])
  const figures = details.objectInfo ?? lastInfo
  const areFiguresStale = isBuilding || details.objectInfo === null
  const shareQuery = useMemo(
    () => (parameters ? encodeShareQuery(parameters, draft) : initialQuery),
    [parameters, draft, initialQuery],
  )
  const sessionId = session?.id

  const upload = useCallback(
    async (file: File) => {
      const entry = await callApiJson('addSessionFile', {
        params: { sessionId: sessionId! },
        query: { name: file.name },
        body: file,
        headers: { 'content-type': file.type || 'application/octet-stream' },
        credentials,
      })
      return entry.name
    },
    [sessionId, credentials],
  )

  const objectInfoMissing = details.objectInfoError instanceof ApiError && details.objectInfoError.status === 409
  const notBuilt = objectInfoMissing || (viewerStatus.state === 'error' && viewerStatus.notBuilt)
  // Once the log is read: the designer's own words (a failed assert's message) or the engine's, never its raw lines.
  const notForSale =
    details.objectInfo?.print.forSale === false
      ? `${details.objectInfo.print.problems.find((problem) => problem.rule === 'buildVolume')?.message ?? 'it is larger than the printer'}.`
      : null
  const failure =
    notBuilt && details.log ? (cadSystem(cadType).failureReason(details.log) ?? 'The model did not build.') : notForSale
  const { layout, refusal } = useEmbedLayout(embedDomain)
  const shareLink = useShareLink(shareQuery, layout.shareUrl)
  const arDevice = useArDevice()
  const [arRequests, setArRequests] = useState(0)
  // The model of the current values, once built and its figures read: never a stale one.
  const arView = isBuilding || details.objectInfo === null ? null : details.objectInfo.ar
  const isArShown = layout.ar && arDevice !== null && session !== null && !notBuilt && !sidePanel
  useEmbedBridge(embedDomain, {
    session,
    credentials,
    parameters,
    modelVersion,
    fieldErrors: configSession.fieldErrors,
    objectInfo: details.objectInfo,
    failure,
    refusal,
    refusedValues: refused.map,
    setValues: setValuesAsStep,
    ar: {
      unavailable: !isArShown
        ? 'This configurator shows no view in your space here'
        : arView === null
          ? 'The model of these values is still being made'
          : arView.reason,
      opener: arDevice && AR_OPENERS[arDevice],
      open: () => setArRequests((count) => count + 1),
    },
  })

  const fatalError = credentialsError ?? configSession.sessionError
  if (fatalError) {
    return (
      <div className="mx-auto max-w-xl p-6">
        <ErrorMessage error={fatalError} />
      </div>
    )
  }

  return (
    // Laid out by its own width, not the screen's: the studio editor's preview is a phone's width on a desktop.
    <div className="@container flex min-h-0 flex-1 flex-col">
      <div
        className={`grid min-h-0 flex-1 grid-cols-1 ${layout.controls ? '@5xl:grid-cols-[minmax(0,1fr)_24rem] @5xl:grid-rows-[minmax(0,1fr)]' : ''}`}
      >
        {/* On a phone the product stays at the top while the controls scroll under it; alone (the shop's controls drive it) it fills the frame. */}
        <div
          data-testid="product-view"
          className={`bg-gradient-to-b from-stone-100 to-stone-200 ${layout.controls ? 'sticky top-0 z-10 h-[42vh] shadow-sm @5xl:relative @5xl:h-auto @5xl:min-h-[32rem] @5xl:shadow-none' : 'relative h-screen'}`}
        >
          {session && modelVersion > 0 && settings && scene.files ? (
            <Viewer
              modelUrl={modelUrl(session, 'glb')}
              modelVersion={modelVersion}
              settings={settings}
              files={scene.files}
              onStatus={showViewerStatus}
            />
          ) : (
            <div className="flex h-full items-center justify-center">
              <Spinner label="Opening the configurator" />
            </div>
          )}
          <div className="pointer-events-none absolute left-3 top-3 flex flex-col gap-2" aria-live="polite">
            {buildingSince !== null && <BuildingIndicator since={buildingSince} onCancel={cancelBuild} />}
          </div>
          <PhoneFigures info={figures} isStale={areFiguresStale} showPrice={layout.price} />
          {isArShown && (
            <div className="absolute bottom-3 left-3 z-10">
              <ArButton
                session={session}
                device={arDevice}
                title={productName}
                shareLink={shareLink}
                view={arView}
                openRequests={arRequests}
              />
            </div>
          )}
          <ViewerProblems status={viewerStatus} sceneError={scene.error} />
        </div>
        <aside
          hidden={!layout.controls}
          className="flex flex-col gap-5 border-stone-200 bg-white p-5 @5xl:overflow-y-auto @5xl:border-l"
        >
          {header}
          {sidePanel && session ? (
            sidePanel({ sessionId: session.id, rendererId: scene.rendererId, settings: scene.settings, parts })
          ) : parameters ? (
            <>
              {/* Beside the product on a wide screen, the figures stay at the panel's top while its controls scroll. */}
              <div className="@5xl:sticky @5xl:-top-5 @5xl:z-10 @5xl:-mx-5 @5xl:-mt-5 @5xl:border-b @5xl:border-stone-200 @5xl:bg-white @5xl:p-5 @5xl:pb-3">
                <ModelFacts
                  info={figures}
                  isStale={areFiguresStale}
                  isNotBuilt={notBuilt}
                  isUnavailable={objectInfoMissing && lastInfo === null}
                  showPrice={layout.price}
                />
              </div>
              {failure && (
                <p
                  role="alert"
                  data-testid="build-failure"
                  className="whitespace-pre-wrap rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
                >
                  These values cannot be made: {failure}
                </p>
              )}
              <ErrorMessage error={configSession.requestError} />
              {session && layout.presets && (
                <Presets
                  configuratorId={configuratorId}
                  sessionId={session.id}
                  credentials={credentials}
                  parameters={parameters}
                  values={draft}
                  onApply={setValuesAsStep}
                  canSave={canSavePresets}
                />
              )}
              <ParameterControls
                parameters={parameters}
                values={draft}
                errors={configSession.fieldErrors}
                refusals={refusals}
                onChange={configSession.setValue}
                onCommit={configSession.commit}
                onUpload={upload}
              />
              <div className="flex flex-col gap-3 border-t border-stone-200 pt-4">
                <div className="flex gap-2">
                  <Button variant="ghost" onClick={configSession.resetToDefaults}>
                    Reset to defaults
                  </Button>
                  <Button variant="ghost" onClick={undo} disabled={!canUndo} aria-keyshortcuts="Control+Z Meta+Z">
                    Undo
                  </Button>
                </div>
                {session && !notBuilt && !notForSale && (
                  <ModelDownloads
                    session={session}
                    credentials={credentials}
                    canDownloadFinal={canDownloadFinal}
                    isDesignerPreview={preview?.draft === true}
                    isBusy={configSession.isUpdating}
                    fileStem={fileStem(productName)}
                    types={
                      figures?.print.process === 'cut'
                        ? ['svg', 'dxf']
                        : ['stl', '3mf', ...Object.keys(cadSystem(cadType).exportTypes)]
                    }
                  />
                )}
                <ShareLink link={shareLink} />
                {details.log?.message.trim() && (
                  <details className="text-xs text-stone-600">
                    <summary className="cursor-pointer">Build messages</summary>
                    <pre className="mt-2 max-h-48 overflow-auto whitespace-pre-wrap rounded bg-stone-100 p-2">
                      {details.log.message}
                    </pre>
                  </details>
                )}
              </div>
            </>
          ) : (
            <Spinner label="Reading the model's parameters" />
          )}
        </aside>
      </div>
    </div>
  )
}

/** On a phone, where the facts scroll away with the controls: the price (else the weight) over the product. */
function PhoneFigures({ info, isStale, showPrice }: { info: ObjectInfo | null; isStale: boolean; showPrice: boolean }) {
  if (!info) return null
  const { price, weight, estimate } = quoteOf(info)
  const about = isStale || estimate ? '≈ ' : ''
  const figure = price && showPrice ? formatPrice(price) : formatWeight(weight)
  return (
    <span
      data-testid="phone-figures"
      className={`pointer-events-none absolute right-3 top-3 rounded-full bg-white/90 px-3 py-1 text-sm tabular-nums shadow-sm @5xl:hidden ${isStale ? 'font-normal text-stone-600' : 'font-semibold text-stone-900'}`}
    >
      {about}
      {figure}
    </span>
  )
}

function ViewerProblems({ status, sceneError }: { status: ViewerStatus; sceneError: unknown }) {
  const problems = [
    ...(status.state === 'error' && !status.notBuilt ? [`The new model could not be shown: ${status.message}`] : []),
    ...(status.state === 'error' && status.notBuilt && status.showsEarlier
      ? ['Shown: the last model that could be made, not the values you set.']
      : []),
    ...(status.state === 'ready' ? status.warnings : []),
    ...(sceneError instanceof Error ? [`Scene settings: ${sceneError.message}`] : []),
  ]
  if (problems.length === 0) return null
  return (
    <ul data-testid="viewer-problems" className="absolute inset-x-3 bottom-12 flex flex-col gap-1 text-xs">
      {problems.map((problem) => (
        <li key={problem} className="rounded-md border border-amber-300 bg-amber-50/95 px-3 py-2 text-amber-900">
          {problem}
        </li>
      ))}
    </ul>
  )
}

function fileStem(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'model'
  )
}
