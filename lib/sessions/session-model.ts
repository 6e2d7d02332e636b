import { AppError, ValidationError } from '@/lib/api/errors'
import { inBackground } from '@/lib/background'
import type { Principal } from '@/lib/auth/authenticate'
import type { CachedBuild } from '@/lib/builds/build-cache'
import type { EngineLog, Values } from '@/lib/cad/engine'
import {
  arViewOf,
  DRAWING_FORMATS,
  exportMesh,
  isArFormat,
  isDrawingFormat,
  isMeshFormat,
  MESH_FORMATS,
  prepareUsdz,
} from '@/lib/cad/mesh/export-mesh'
import { cadSystem } from '@/lib/cad/engines'
import { flatArea, isFlat } from '@/lib/cad/mesh/flat-outline'
import { db } from '@/lib/db'
import type { RenderSession } from '@/lib/generated/prisma/client'
import {
  buildStoredModel,
  buildValues,
  builtOrConflict,
  type BuildSource,
  exportedModel,
  manufacturingOf,
  refusedValuesOf,
  type Quality,
  readBuildSource,
  write3mfOf,
} from '@/lib/sessions/model-builds'
import { withSceneLook } from '@/lib/renderers/ar-look'
import { sessionScene } from '@/lib/renderers/scene-settings'
import type { SceneSettings } from '@/lib/renderers/schemas'
import { effectiveValues, toParameterSet, validateValues } from '@/lib/sessions/parameter-values'
import { dropCandidates } from '@/lib/sessions/prefetch'
import type { ParameterSet } from '@/lib/sessions/schemas'
import { updateSession } from '@/lib/sessions/session-updates'
import { findSessionByKeyOrPrincipal, type LoadedSession } from '@/lib/sessions/sessions'

// What the session's model endpoints answer: its parameters, setting them, its figures, its log
// and its files, each reading the model's inputs and builds once per request.

/**
 * Bounding box and volume of the session's current model, and its printability and price report;
 * 409 naming `logPath` (the session's log) when it did not build.
 */
export async function getObjectInfo(session: LoadedSession, logPath: string) {
  const { source, values, build } = await buildStoredModel(session, 'preview')
  const { mesh, objectInfo } = builtOrConflict(build, logPath)
  const { boundingBox, volume } = objectInfo
  const ar = arViewOf(mesh)
  // The values' model is shown (its figures are asked for): its AR file is written once the customer pauses.
  if (ar.possible)
    inBackground(`ar:${session.id}`, build.key, async () =>
      prepareUsdz(withSceneLook(mesh, await sessionScene(session, 'webgl'))),
    )
  return {
    boundingBox,
    volume,
    ...(isFlat(mesh) && { area: flatArea(mesh) }),
    ...(await manufacturingOf(source, values)),
    ar,
  }
}

/** Where the session's model refuses values at its values: what is searched so far (refusedValuesOf). */
export async function getRefusedValues(session: LoadedSession) {
  const source = await readBuildSource(session)
  return refusedValuesOf(source, session.values)
}

export async function getParameters(session: LoadedSession): Promise<ParameterSet> {
  const source = await readBuildSource(session)
  return toParameterSet(source.definitions, effectiveValues(source, session.values))
}

/**
 * The log of the last configuration: the CAD run's output; in `error`, first what was said about
 * the values when they were stored (a preset's ignored or clamped ones), then what each
 * renderer's last image could not draw as asked, each line naming its renderer.
 */
export function composeSessionLog(
  session: Pick<LoadedSession, 'valueWarnings'>,
  build: EngineLog,
  renderers: Pick<RenderSession, 'id' | 'renderLog'>[],
): EngineLog {
  const rendererLines = renderers.flatMap(({ id, renderLog }) =>
    renderLog ? renderLog.split('\n').map((line) => `renderer ${id}: ${line}`) : [],
  )
  return {
    message: build.message,
    error: [session.valueWarnings, build.error, ...rendererLines].filter(Boolean).join('\n'),
  }
}

export async function getSessionLog(session: LoadedSession) {
  const [{ build }, renderers] = await Promise.all([
    buildStoredModel(session, 'preview'),
    db.renderSession.findMany({ where: { sessionId: session.id }, orderBy: { createdAt: 'asc' } }),
  ])
  return { ...composeSessionLog(session, build.log, renderers), timestamp: session.configuredAt.getTime() }
}

/**
 * Validates and stores new values, and starts building their model; answers the full parameter
 * set of the stored state, which holds them (lib/sessions/session-updates.ts).
 */
export async function setParameters(
  session: LoadedSession,
  body: Record<string, { value: unknown }>,
): Promise<ParameterSet> {
  const source = await readBuildSource(session)
  return storeValues(
    session,
    source,
    validateValues(source.definitions, body, new Set(source.inputs.sessionFileNames.keys())),
  )
}

/** Stores valid values over the session's and starts building them; answers the stored state. `warnings`: what the session's log says about them. */
export async function storeValues(
  session: LoadedSession,
  source: BuildSource,
  changes: Values,
  warnings?: string,
): Promise<ParameterSet> {
  // The customer set values: candidates of what it would set are moot.
  dropCandidates(source.session.id)
  const stored = await updateSession(source.session.id, {
    current: session.values,
    changes,
    warnings,
    build: (values, signal) => buildValues(source, values, signal),
  })
  return toParameterSet(source.definitions, effectiveValues(source, stored))
}

/** The model of the session's stored state as a file of `type`; 409 naming `logPath` when it did not build. */
export async function storedModelFile(
  session: LoadedSession,
  quality: Quality,
  type: string | undefined,
  logPath: string,
) {
  const { source, values, build } = await buildStoredModel(session, quality)
  return modelFileOf({ source, values, quality, build, type, logPath })
}

export interface ModelFileOptions {
  source: BuildSource
  values: Values
  quality: Quality
  /** The build of these values at this quality. */
  build: CachedBuild
  /** A mesh or drawing format, or one of the CAD system's export types (ZModelQuery); the model's default when undefined. */
  type: string | undefined
  logPath: string
  /** The scene whose materials an AR file (glb, usdz) takes where they map (ar-look.ts); the model's own colours without. */
  scene?: SceneSettings
}

/**
 * A built model as a file of `type` (by default STL, SVG for a 2D model); 409 when it did not
 * build, 422 naming `type` when the model cannot be one: a 2D model is SVG, DXF or GLB (the
 * viewer's), a 3D model no SVG or DXF.
 */
export async function modelFileOf({ source, values, quality, build, type, logPath, scene }: ModelFileOptions) {
  const { mesh } = builtOrConflict(build, logPath)
  const flat = isFlat(mesh)
  const system = cadSystem(source.inputs.cadType)
  const types = flat
    ? [...Object.keys(DRAWING_FORMATS), 'glb']
    : [...Object.keys(MESH_FORMATS), ...Object.keys(system.exportTypes)]
  const fileType = type ?? types[0]!
  if (!types.includes(fileType))
    throw new ValidationError([
      { path: ['type'], message: `a ${flat ? '2D' : '3D'} ${system.name} model is one of ${types.join(', ')}` },
    ])
  if (!isMeshFormat(fileType) && !isDrawingFormat(fileType))
    return { build, type: fileType, ...(await exportedModel(source, values, quality, { build, type: fileType })) }
  const { reason } = fileType === 'usdz' ? arViewOf(mesh) : { reason: null }
  if (reason) throw new ValidationError([{ path: ['type'], message: reason }])
  if (fileType !== '3mf') {
    const looked = scene && isArFormat(fileType) ? withSceneLook(mesh, scene) : mesh
    return { build, type: fileType, ...exportMesh(looked, fileType) }
  }
  const bytes = await write3mfOf(source, values, quality)
  return { build, type: fileType, bytes, contentType: MESH_FORMATS['3mf'].contentType }
}

/** A built model as a file: its bytes, their type, and the build they came from. */
export type ModelFile = Awaited<ReturnType<typeof modelFileOf>>

export interface SessionModelOptions {
  sessionId: string
  principal: Principal | null
  /** The session's modelKey, when it is used instead of a token. */
  key?: string
  quality: Quality
  type: string | undefined
  /** Where the session's log is, named when the model did not build. */
  logPath: string
}

/** The model of the session's current state as a file; 409 when it did not build. */
export async function sessionModelFile({ sessionId, principal, key, quality, type, logPath }: SessionModelOptions) {
  const session = await findSessionByKeyOrPrincipal(sessionId, principal, key, 'model')
  // secureModel: only the shop's back end (server token) or the owner fetches the final model.
  if (
    quality === 'final' &&
    session.application?.secureModel &&
    (principal === null || principal.kind === 'anonymous')
  ) {
    throw new AppError('forbidden', "This application's finalized model needs the shop's server token")
  }
  // The AR files look as the customer's viewer shows the product; its scene is read beside the build.
  const [scene, { source, values, build }] = await Promise.all([
    type && isArFormat(type) ? sessionScene(session, 'webgl') : undefined,
    buildStoredModel(session, quality),
  ])
  return modelFileOf({ source, values, quality, build, type, logPath, scene })
}
