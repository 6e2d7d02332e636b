import 'server-only'
import fs from 'node:fs/promises'
import { z } from 'zod'
import { AppError } from '@/lib/api/errors'
import type { Principal } from '@/lib/auth/authenticate'
import { type Values, ZParameterDefinition, ZValues } from '@/lib/cad/engine'
import { engineVersion } from '@/lib/cad/engine-versions'
import { ZExtraSettings } from '@/lib/configurators/schemas'
import { db } from '@/lib/db'
import { formatDateTime } from '@/lib/format-date'
import { hostFonts, placedFontName } from '@/lib/cad/fonts/host-fonts'
import type { Snapshot } from '@/lib/generated/prisma/client'
import { parseColumn, toJsonInput } from '@/lib/json-columns'
import { installedFiles } from '@/lib/builds/library-files'
import { type Quote, ZPrintReport, ZQuote, ZSliceReport } from '@/lib/manufacturing/schemas'
import { quoteOf } from '@/lib/manufacturing/quote'
import { isRendererRequest } from '@/lib/render/server/image-renderer'
import { renderScene } from '@/lib/render/server/render-session-image'
import type { ImageQuery } from '@/lib/renderers/image-query'
import { findContentFiles } from '@/lib/releases/release-content'
import { sessionScene } from '@/lib/renderers/scene-settings'
import { ZSceneSettings } from '@/lib/renderers/schemas'
import { isValidSessionKey, signSessionKey } from '@/lib/sessions/session-keys'
import {
  buildModel,
  type BuildSource,
  buildStoredModel,
  builtOrConflict,
  finalPrintReport,
  finalSliceReport,
} from '@/lib/sessions/model-builds'
import { hashOf } from '@/lib/hash-of'
import { modelFileOf, type SessionModelOptions } from '@/lib/sessions/session-model'
import { toParameterSet } from '@/lib/sessions/parameter-values'
import type { LoadedSession } from '@/lib/sessions/sessions'
import { type SnapshotDto, ZSnapshot } from '@/lib/snapshots/schemas'
import { blobStore } from '@/lib/storage/blob-store'
import { scheduleDelivery } from '@/lib/webhooks/webhook-queue'
import { recordEvent } from '@/lib/webhooks/webhooks'

// A snapshot freezes what a build of a session depends on, each file by content hash, so its
// models build from exactly those inputs however the session, the configurator, the installed
// libraries or the machine's fonts change later. Blobs are content-addressed and never deleted
// (lib/storage/blob-store.ts), so every file a snapshot names stays readable while it exists.

const ZStoredFile = z.object({ path: z.string(), blobHash: z.string() })

/** The frozen inputs, as stored in `Snapshot.frozen`; `format` changes with their shape. */
const ZFrozenInputs = z.object({
  format: z.literal(1),
  title: z.string(),
  engine: ZSnapshot.shape.engine,
  mainFile: z.string(),
  files: z.array(ZStoredFile),
  libraries: z.array(z.object({ name: z.string(), contentHash: z.string(), files: z.array(ZStoredFile) })),
  fonts: z.object({ hash: z.string(), files: z.array(ZStoredFile) }),
  /** Session file id → the name the model sees it under (file parameters hold ids). */
  sessionFileNames: z.array(z.tuple([z.string(), z.string()])),
  settings: ZExtraSettings,
  limits: z.object({ timeLimitMs: z.number(), memoryLimitBytes: z.number() }),
  sourceHash: z.string(),
  definitions: z.array(ZParameterDefinition),
  values: ZValues,
  scene: ZSceneSettings,
  sceneFiles: z.array(ZStoredFile.extend({ contentType: z.string(), size: z.number() })),
  print: ZPrintReport,
  /** Absent in snapshots taken before slicing: their quote is the print report's. */
  slice: ZSliceReport.optional(),
  quote: ZQuote.optional(),
})
type Frozen = z.infer<typeof ZFrozenInputs>

/** This machine's fonts as blobs, stored once per process: a snapshot names them by content hash. */
let storedFonts: Promise<Frozen['fonts']> | undefined
function hostFontBlobs(): Promise<Frozen['fonts']> {
  storedFonts ??= (async () => {
    const { fonts, hash } = hostFonts()
    const files = await Promise.all(
      fonts.map(async (font, index) => {
        const stored = await blobStore.put(new Blob([await fs.readFile(font.file)]).stream(), Number.MAX_SAFE_INTEGER)
        return { path: placedFontName(font, index), blobHash: stored.hash }
      }),
    )
    return { hash, files }
  })()
  storedFonts.catch(() => (storedFonts = undefined))
  return storedFonts
}

/** The renderer whose scene a snapshot keeps: the headless one (it draws server images), else the first. */
async function sceneOf(session: LoadedSession): Promise<Pick<Frozen, 'scene' | 'sceneFiles'>> {
  const scene = await sessionScene(session, 'headless')
  const files = await findContentFiles(session.configurator, { startsWith: 'renderer/' })
  return {
    scene,
    sceneFiles: files.map(({ path, blobHash, contentType, size }) => ({
      path: path.slice('renderer/'.length),
      blobHash,
      contentType,
      size,
    })),
  }
}

/**
 * Freezes the session's stored state; 409 pointing at its log (`logPath`) when its model does not
 * build, 409 naming why when it is not for sale (larger than the printer). Builds the final
 * quality's parts for the price, so taking one can take a build's time.
 */
export async function takeSnapshot(session: LoadedSession, logPath: string): Promise<SnapshotDto> {
  const { source, values, build } = await buildStoredModel(session, 'preview')
  builtOrConflict(build, logPath)
  const { inputs, definitions } = source
  const engine = engineVersion(inputs.cadType, inputs.cadVersion)?.build
  if (!engine) throw new AppError('conflict', `This server has no engine ${inputs.cadType} ${inputs.cadVersion}`)
  const [print, libraries, fonts, scene] = await Promise.all([
    finalPrintReport(source, values),
    Promise.all(inputs.libraries.map(async (library) => ({ ...library, files: await installedFiles(library) }))),
    hostFontBlobs(),
    sceneOf(session),
  ])
  if (!print.forSale) {
    const reason = print.problems.find((problem) => problem.rule === 'buildVolume')?.message
    throw new AppError(
      'conflict',
      `These values make a model that is not for sale: ${reason}. The configurator's manufacturing settings may allowOversize`,
    )
  }
  // The order's quote: the slicer's, waited for; the geometry's, marked so, when the slice fails.
  const slice = await finalSliceReport(source, values, print)
  const frozen: Frozen = {
    format: 1,
    title: session.configurator.name,
    engine: { cadType: inputs.cadType, cadVersion: inputs.cadVersion, build: engine },
    mainFile: inputs.mainFile,
    files: inputs.files,
    libraries,
    fonts,
    sessionFileNames: [...inputs.sessionFileNames],
    settings: inputs.settings,
    limits: inputs.limits,
    sourceHash: inputs.sourceHash,
    definitions,
    values,
    ...scene,
    print,
    slice,
    quote: frozenQuote(quoteOf({ print, slice })),
  }
  const { dto, deliveryId } = await db.$transaction(async (tx) => {
    const created = await tx.snapshot.create({
      data: {
        ownerId: session.configurator.userId,
        configuratorId: session.configuratorId,
        applicationId: session.applicationId,
        sessionId: session.id,
        identityId: session.identityId,
        releaseNumber: session.configurator.release?.number ?? null,
        frozen: toJsonInput(ZFrozenInputs, frozen),
        contentHash: hashOf(frozen),
      },
    })
    const dto = await toSnapshotDto(created)
    // Recorded with the snapshot, so an event is never lost nor sent for a snapshot that is not there.
    const { application } = session
    return {
      dto,
      deliveryId: application?.webhookUrl
        ? await recordEvent(tx, application.id, 'snapshot.created', { snapshot: withoutKey(dto) })
        : null,
    }
  })
  if (deliveryId) await scheduleDelivery(deliveryId)
  return dto
}

function frozenQuote({ estimate: _, ...quote }: Quote & { estimate: boolean }): Quote {
  return quote
}

/** A snapshot's quote as frozen; one taken before slicing existed has the print report's. */
function quoteOfFrozen({ print, quote }: Frozen): Quote {
  return (
    quote ?? {
      basis: 'geometry',
      weight: print.weight,
      price: print.price,
      printTimeSeconds: null,
      reason: 'taken before slicing',
    }
  )
}

function withoutKey({ modelKey: _, ...rest }: SnapshotDto): Omit<SnapshotDto, 'modelKey'> {
  return rest
}

function frozenOf(snapshot: Snapshot): Frozen {
  return parseColumn(ZFrozenInputs, snapshot.frozen, { table: 'Snapshot', id: snapshot.id, column: 'frozen' })
}

export async function toSnapshotDto(snapshot: Snapshot): Promise<SnapshotDto> {
  const frozen = frozenOf(snapshot)
  const { engine, definitions, values, print } = frozen
  return {
    id: snapshot.id,
    sessionId: snapshot.sessionId,
    configuratorId: snapshot.configuratorId,
    applicationId: snapshot.applicationId,
    release: snapshot.releaseNumber,
    createdAt: formatDateTime(snapshot.createdAt),
    contentHash: snapshot.contentHash,
    engine,
    parameters: toParameterSet(definitions, values),
    print,
    slice: frozen.slice ?? null,
    quote: quoteOfFrozen(frozen),
    modelKey: await signSessionKey(snapshot.id, 'snapshot'),
  }
}

/**
 * The snapshot, for the configurator's owner, the server token of its application and the
 * customer who took it (anyone else: 404, as for one that does not exist), or for a valid `key`.
 */
export async function findSnapshot(snapshotId: string, principal: Principal | null, key?: string): Promise<Snapshot> {
  if (key !== undefined && !(await isValidSessionKey(key, snapshotId, 'snapshot')))
    throw new AppError('forbidden', 'The key is not a valid modelKey of this snapshot')
  const snapshot = await db.snapshot.findUnique({ where: { id: snapshotId } })
  if (snapshot && (key !== undefined || (principal && mayRead(snapshot, principal)))) return snapshot
  throw new AppError('not_found', `Snapshot ${snapshotId} not found`)
}

function mayRead(snapshot: Snapshot, principal: Principal): boolean {
  if (principal.kind === 'user') return snapshot.ownerId === principal.user.id
  if (snapshot.applicationId !== principal.application.id) return false
  return principal.kind === 'server' || snapshot.identityId === principal.identityId
}

/** Deletes the owner's snapshot; the content-addressed files it named stay with whatever else names them. */
export async function deleteSnapshot(snapshotId: string, userId: string): Promise<void> {
  const { count } = await db.snapshot.deleteMany({ where: { id: snapshotId, ownerId: userId } })
  if (count === 0) throw new AppError('not_found', `Snapshot ${snapshotId} not found`)
}

/** The frozen model as a source the session code builds from: same inputs, same build keys. */
function sourceOf(snapshot: Snapshot): { source: BuildSource; values: Values } {
  const frozen = frozenOf(snapshot)
  const {
    engine,
    mainFile,
    files,
    libraries,
    fonts,
    sessionFileNames,
    settings,
    limits,
    sourceHash,
    definitions,
    values,
  } = frozen
  const here = engineVersion(engine.cadType, engine.cadVersion)?.build
  if (here !== engine.build) {
    throw new AppError(
      'conflict',
      `This snapshot was built with ${engine.build}; this server runs ${here ?? `no ${engine.cadType} ${engine.cadVersion} engine`}`,
    )
  }
  const inputs = {
    cadType: engine.cadType,
    cadVersion: engine.cadVersion,
    mainFile,
    files,
    libraries,
    sessionFileNames: new Map(sessionFileNames),
    settings,
    limits,
    fontsHash: fonts.hash,
    // This machine's fonts are the snapshot's as long as their hash is: then the warm engine builds.
    fonts: fonts.hash === hostFonts().hash ? undefined : fonts.files,
    sourceHash,
  }
  // Its builds are nobody's session: scheduled as the application's, no customer's time counted.
  const session = {
    id: snapshot.id,
    identityId: null,
    configuratorId: snapshot.configuratorId,
    applicationId: snapshot.applicationId,
  }
  return { source: { session, inputs, definitions, title: frozen.title }, values }
}

export interface SnapshotModelOptions extends Omit<SessionModelOptions, 'sessionId'> {
  snapshotId: string
}

/** The snapshot's model as a file; the final quality for the shop's server token or the owner only. */
export async function snapshotModelFile({ snapshotId, principal, key, quality, type, logPath }: SnapshotModelOptions) {
  const isFinal = quality === 'final'
  const snapshot = await findSnapshot(snapshotId, principal, isFinal ? undefined : key)
  if (isFinal && (key !== undefined || principal?.kind === 'anonymous')) {
    throw new AppError(
      'forbidden',
      "A snapshot's finalized model needs the shop's server token or the configurator's owner",
    )
  }
  return modelFile(snapshot, quality, type, logPath)
}

/** The snapshot's model as a file of `type`, built from its frozen inputs (or cached); 409 naming `logPath` when it did not build. */
async function modelFile(
  snapshot: Snapshot,
  quality: SessionModelOptions['quality'],
  type: string | undefined,
  logPath: string,
) {
  const { source, values } = sourceOf(snapshot)
  const build = await buildModel(source, values, quality)
  return modelFileOf({ source, values, quality, build, type, logPath, scene: frozenOf(snapshot).scene })
}

export interface SnapshotImageOptions {
  snapshotId: string
  principal: Principal | null
  query: ImageQuery
  request: Request
  /** Where the snapshot is (named when its model did not build), and where its scene's files are: `filesPrefix` + path. */
  logPath: string
  filesPrefix: string
}

/** A server-side image of the snapshot's preview model in its frozen scene. */
export async function renderSnapshotImage({
  snapshotId,
  principal,
  query,
  request,
  logPath,
  filesPrefix,
}: SnapshotImageOptions) {
  if (isRendererRequest(request.headers)) throw new AppError('forbidden', 'A render cannot request another image')
  const snapshot = await findSnapshot(snapshotId, principal, query.key)
  const model = await modelFile(snapshot, 'preview', 'glb', logPath)
  const key = await signSessionKey(snapshot.id, 'snapshot')
  return renderScene({
    glb: model.bytes,
    files: { prefix: filesPrefix, query: `?key=${encodeURIComponent(key)}` },
    settings: frozenOf(snapshot).scene,
    query,
    signal: request.signal,
  })
}

/** A shader or texture of the snapshot's frozen scene. */
export async function findSnapshotFile(
  snapshotId: string,
  principal: Principal | null,
  key: string | undefined,
  path: string,
) {
  const file = frozenOf(await findSnapshot(snapshotId, principal, key)).sceneFiles.find(
    (candidate) => candidate.path === path,
  )
  if (!file) throw new AppError('not_found', `File ${path} is not in this snapshot's scene`)
  return file
}
