import { z } from 'zod'
import { AppError, ValidationError } from '@/lib/api/errors'
import { ZParameterDefinition } from '@/lib/cad/engine'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import {
  findOwnedConfigurator,
  readExtraSettings,
  type OwnedConfiguratorOptions,
} from '@/lib/configurators/configurators'
import { changeModel } from '@/lib/configurators/model-changes'
import { ZExtraSettings, ZPreparationFailure } from '@/lib/configurators/schemas'
import { db } from '@/lib/db'
import { formatDateTime } from '@/lib/format-date'
import type { Preparation, Release } from '@/lib/generated/prisma/client'
import { type Column, parseColumn, toJsonInput } from '@/lib/json-columns'
import { DIFF_BUDGET_MS, diffTexts } from '@/lib/publishing/text-diff'
import { readDraft, versionOf } from '@/lib/releases/release-content'
import {
  type PublishReleaseInput,
  type ReleaseComparison,
  type ReleaseDto,
  ZDefaultsModel,
} from '@/lib/publishing/schemas'
import { buildValues, readConfiguratorSource } from '@/lib/sessions/model-builds'
import { toParameterSet } from '@/lib/sessions/parameter-values'
import type { ParameterSet } from '@/lib/sessions/schemas'
import { readFailures, readTestDrive, startPreparation } from '@/lib/sessions/preparation'
import { blobStore } from '@/lib/storage/blob-store'

// Publishing turns the configurator's draft into an immutable, numbered release that new
// sessions get; a session keeps the release it started with. Before the first publish the
// configurator has no release and its files are what sessions get, as the interface says.

const ZParameters = z.array(ZParameterDefinition)
const ZDefaults = ZDefaultsModel.nullable()
const ZFailures = z.array(ZPreparationFailure)

type Failure = z.infer<typeof ZPreparationFailure>

export interface ReleaseOptions extends OwnedConfiguratorOptions {
  number: number
}

/** What of the draft's preparation did not build: the parameters, the defaults, a preset, a test drive sample. */
function failuresOf(preparation: Preparation): Failure[] {
  const failed =
    preparation.state === 'failed'
      ? [{ build: 'the parameters', message: preparation.message, log: preparation.message }]
      : []
  const samples = readTestDrive(preparation)
    .filter((sample) => sample.outcome !== 'built')
    .map((sample) => ({
      build: `test drive ${JSON.stringify(sample.values)}`,
      message: `${sample.outcome}: ${sample.message}`,
      log: sample.message,
    }))
  return [...failed, ...readFailures(preparation), ...samples]
}

/** A preparation still running after this long was cut off (its process stopped): it is started again. */
const ABANDONED_AFTER_MS = 15 * 60_000

/**
 * The draft's preparation when it prepared exactly this version and is done; otherwise 409,
 * having started one when none prepares this version.
 */
async function finishedPreparation(configuratorId: string, version: string): Promise<Preparation> {
  const preparation = await db.preparation.findUnique({ where: { configuratorId } })
  const isDone = preparation?.state !== 'preparing' && preparation?.testDriveDone
  const isAbandoned =
    !isDone && preparation !== null && Date.now() - preparation.startedAt.getTime() > ABANDONED_AFTER_MS
  if (preparation?.draft === version && isDone) return preparation
  if (preparation?.draft !== version || isAbandoned) startPreparation(configuratorId)
  throw new AppError(
    'conflict',
    'The draft is being prepared (its defaults, presets and test drive are built): publish it once GET .../preparation is ready and its testDrive is done',
  )
}

/** The defaults' volume and bounding box, from the preparation's cached build; null when they do not build. */
async function measureDefaults(configurator: Parameters<typeof readConfiguratorSource>[0]) {
  const source = await readConfiguratorSource(configurator)
  const { mesh } = await buildValues(source, {})
  return { parameters: source.definitions, defaults: mesh ? measureMesh(mesh) : null }
}

/**
 * Publishes the draft as the next release, which new sessions get from now on. The draft must be
 * the one prepared (and, when `draft` names a version, the one the designer reviewed): 409
 * otherwise. When anything of the preparation did not build, only with `override` (422 without).
 */
export async function publishRelease({
  input,
  ...owned
}: OwnedConfiguratorOptions & { input: PublishReleaseInput }): Promise<ReleaseDto> {
  await findOwnedConfigurator(owned)
  const { configuratorId } = owned
  const draft = (await readDraft(configuratorId))!
  if (input.draft !== undefined && input.draft !== draft.version) {
    throw new AppError(
      'conflict',
      `The draft changed since the version you reviewed (${input.draft}); it is ${draft.version} now: review it and publish again`,
    )
  }
  const preparation = await finishedPreparation(configuratorId, draft.version)
  const failures = failuresOf(preparation)
  if (failures.length > 0 && !input.override) {
    const builds = failures.map((failure) => `${failure.build} (${failure.message})`).join('; ')
    throw new ValidationError([
      {
        path: ['override'],
        message: `the draft does not build everywhere: ${builds}; send override: true to publish it anyway`,
      },
    ])
  }
  const { parameters, defaults } = await measureDefaults(draft.configurator)
  const release = await changeModel({ kind: 'configurator', subject: configuratorId }, async (tx) => {
    // One publish at a time per configurator: a second one waits here, then finds the first's release.
    await tx.$executeRaw`SELECT 1 FROM "Configurator" WHERE id = ${configuratorId}::uuid FOR UPDATE`
    const now = (await readDraft(configuratorId, tx))!
    if (now.version !== draft.version)
      throw new AppError('conflict', 'The draft changed while it was published: review it and publish again')
    const last = await tx.release.findFirst({
      where: { configuratorId },
      orderBy: { number: 'desc' },
      include: { files: { orderBy: { path: 'asc' } } },
    })
    if (last && versionOf(last, last.files) === now.version) {
      const current =
        now.configurator.releaseId === last.id
          ? ' and new sessions get it'
          : `: roll back to release ${last.number} to give it to new sessions`
      throw new AppError('conflict', `The draft is published already as release ${last.number}${current}`)
    }
    const { mainFile, cadType, cadVersion, rendererType, rendererVersion } = now.configurator
    const created = await tx.release.create({
      data: {
        configuratorId,
        number: (last?.number ?? 0) + 1,
        note: input.note,
        mainFile,
        cadType,
        cadVersion,
        rendererType,
        rendererVersion,
        extraSettings: toJsonInput(ZExtraSettings, readExtraSettings(now.configurator)),
        parameters: toJsonInput(ZParameters, parameters),
        ...(defaults && { defaults: toJsonInput(ZDefaults, defaults) }),
        overridden: toJsonInput(ZFailures, failures),
        files: {
          createMany: {
            data: now.files.map(({ path, blobHash, size, contentType }) => ({ path, blobHash, size, contentType })),
          },
        },
      },
    })
    await tx.configurator.update({ where: { id: configuratorId }, data: { releaseId: created.id } })
    return created
  })
  return toReleaseDto({ ...release, _count: { files: draft.files.length } }, release.id)
}

const WITH_FILE_COUNT = { _count: { select: { files: true } } } as const
type CountedRelease = Release & { _count: { files: number } }

/** The configurator's releases, newest first. */
export async function listReleases(owned: OwnedConfiguratorOptions): Promise<ReleaseDto[]> {
  const configurator = await findOwnedConfigurator(owned)
  const releases = await db.release.findMany({
    where: { configuratorId: configurator.id },
    orderBy: { number: 'desc' },
    include: WITH_FILE_COUNT,
  })
  return releases.map((release) => toReleaseDto(release, configurator.releaseId))
}

async function findRelease({ number, ...owned }: ReleaseOptions) {
  const configurator = await findOwnedConfigurator(owned)
  const release = await db.release.findUnique({
    where: { configuratorId_number: { configuratorId: configurator.id, number } },
    include: WITH_FILE_COUNT,
  })
  if (!release) throw new AppError('not_found', `Release ${number} not found`)
  return { configurator, release }
}

export async function getRelease(options: ReleaseOptions): Promise<ReleaseDto> {
  const { configurator, release } = await findRelease(options)
  return toReleaseDto(release, configurator.releaseId)
}

/** Makes an earlier (or later) release the one new sessions get, in one step; the draft stays as it is. */
export async function rollBackRelease(options: ReleaseOptions): Promise<ReleaseDto> {
  const { release } = await findRelease(options)
  await changeModel({ kind: 'configurator', subject: release.configuratorId }, (tx) =>
    tx.configurator.update({ where: { id: release.configuratorId }, data: { releaseId: release.id } }),
  )
  return toReleaseDto(release, release.id)
}

/** Larger files are compared by content hash alone. */
const MAX_DIFF_BYTES = 256 * 1024

/** The file's text, or why it is not diffed (too large, not UTF-8 text). */
async function readText(file: { blobHash: string; size: number } | undefined): Promise<string | { reason: string }> {
  if (!file) return ''
  if (file.size > MAX_DIFF_BYTES) return { reason: `larger than ${MAX_DIFF_BYTES / 1024} KB` }
  const bytes = await blobStore.readBuffer(file.blobHash)
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return text.includes('\0') ? { reason: 'binary' } : text
  } catch {
    return { reason: 'binary' }
  }
}

/** What changed from release `from` to release `to`: files (with a text diff), parameters, and the defaults' volume and bounding box. */
export async function compareReleases({
  from,
  to,
  ...owned
}: OwnedConfiguratorOptions & { from: number; to: number }): Promise<ReleaseComparison> {
  const [before, after] = await Promise.all([
    findRelease({ ...owned, number: from }),
    findRelease({ ...owned, number: to }),
  ])
  const filesOf = async (release: Release) =>
    new Map((await db.releaseFile.findMany({ where: { releaseId: release.id } })).map((file) => [file.path, file]))
  const [beforeFiles, afterFiles] = await Promise.all([filesOf(before.release), filesOf(after.release)])
  const changedPaths = [...new Set([...beforeFiles.keys(), ...afterFiles.keys()])]
    .sort()
    .filter((path) => beforeFiles.get(path)?.blobHash !== afterFiles.get(path)?.blobHash)
  const changes = await Promise.all(
    changedPaths.map(async (path) => {
      const [old, now] = [beforeFiles.get(path), afterFiles.get(path)]
      const texts = await Promise.all([readText(old), readText(now)])
      return { path, change: !old ? ('added' as const) : !now ? ('removed' as const) : ('changed' as const), texts }
    }),
  )
  const textual = changes.flatMap(({ path, texts: [oldText, newText] }) =>
    typeof oldText === 'string' && typeof newText === 'string'
      ? [{ oldName: `release ${from}/${path}`, newName: `release ${to}/${path}`, oldText, newText, path }]
      : [],
  )
  const diffs = await diffTexts(textual)
  const diffOf = new Map(textual.map(({ path }, index) => [path, diffs[index] ?? null]))
  const files = changes.map(({ path, change, texts }) => {
    const diff = diffOf.get(path) ?? null
    const unreadable = texts.find((text) => typeof text !== 'string')
    const noDiff = unreadable
      ? unreadable.reason
      : diff === null
        ? `too many changes to diff within ${DIFF_BUDGET_MS / 1000} s`
        : null
    return { path, change, diff, noDiff }
  })
  return {
    from,
    to,
    files,
    parameters: compareParameters(before.release, after.release),
    defaults: { from: defaultsOf(before.release), to: defaultsOf(after.release) },
  }
}

function compareParameters(before: Release, after: Release): ReleaseComparison['parameters'] {
  const [old, now] = [before, after].map((release) =>
    toParameterSet(parseColumn(ZParameters, release.parameters, columnOf(release, 'parameters')), {}),
  ) as [ParameterSet, ParameterSet]
  const only = (set: ParameterSet, other: ParameterSet) =>
    Object.fromEntries(Object.entries(set).filter(([key]) => !(key in other)))
  const changed = Object.keys(now)
    .filter((key) => key in old && JSON.stringify(old[key]) !== JSON.stringify(now[key]))
    .map((key) => [key, { from: old[key]!, to: now[key]! }] as const)
  return { added: only(now, old), removed: only(old, now), changed: Object.fromEntries(changed) }
}

function defaultsOf(release: Release): z.infer<typeof ZDefaults> {
  return parseColumn(ZDefaults, release.defaults, columnOf(release, 'defaults'))
}

function columnOf(release: Release, column: string): Column {
  return { table: 'Release', id: release.id, column }
}

export function toReleaseDto(release: CountedRelease, currentId: string | null): ReleaseDto {
  return {
    number: release.number,
    note: release.note,
    createdAt: formatDateTime(release.createdAt),
    current: release.id === currentId,
    mainFile: release.mainFile,
    cadVersion: release.cadVersion,
    files: release._count.files,
    defaults: defaultsOf(release),
    overridden: parseColumn(ZFailures, release.overridden, columnOf(release, 'overridden')),
  }
}
