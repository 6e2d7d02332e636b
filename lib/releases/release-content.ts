import { db } from '@/lib/db'
import { hashOf } from '@/lib/hash-of'
import { rememberedRows } from '@/lib/remembered-rows'
import type { Configurator, Prisma, Release } from '@/lib/generated/prisma/client'

// What a session's model is made of: the release it started with, or the configurator's draft
// (its files as they are) for a configurator never published and for the owner's draft link.

/** The configurator as one of its sessions sees it: a release's files and settings, or the draft's (`release` null). */
export type ConfiguratorContent = Configurator & { release: { id: string; number: number } | null }

export interface ContentFile {
  path: string
  blobHash: string
  size: number
  contentType: string
}

// Releases never change: remembered until the memory's limits drop them.
const releases = rememberedRows<Release>('releases', 'paraform_releases', { entries: 10_000, maxAgeMs: 60 * 60_000 })

/** The configurator's files and settings as they are: what the designer edits. */
export function draftOf(configurator: Configurator): ConfiguratorContent {
  return { ...configurator, release: null }
}

export async function contentOf(configurator: Configurator, releaseId: string | null): Promise<ConfiguratorContent> {
  const release =
    releaseId === null ? null : await releases.get(releaseId, () => db.release.findUnique({ where: { id: releaseId } }))
  if (!release) return draftOf(configurator)
  return { ...configurator, ...settingsOf(release), release: { id: release.id, number: release.number } }
}

const FILE_FIELDS = { path: true, blobHash: true, size: true, contentType: true } as const

/** The content's files whose path passes `path`, in path order. */
export function findContentFiles(content: ConfiguratorContent, path: Prisma.StringFilter = {}): Promise<ContentFile[]> {
  const orderBy = { path: 'asc' } as const
  return content.release
    ? db.releaseFile.findMany({ where: { releaseId: content.release.id, path }, select: FILE_FIELDS, orderBy })
    : db.configuratorFile.findMany({ where: { configuratorId: content.id, path }, select: FILE_FIELDS, orderBy })
}

export async function findContentFile(content: ConfiguratorContent, path: string): Promise<ContentFile | null> {
  return (await findContentFiles(content, { equals: path }))[0] ?? null
}

type Settings = Pick<
  Configurator,
  'mainFile' | 'cadType' | 'cadVersion' | 'rendererType' | 'rendererVersion' | 'extraSettings'
>

/** The settings a configurator's files build and render with, which a release freezes beside them. */
function settingsOf({
  mainFile,
  cadType,
  cadVersion,
  rendererType,
  rendererVersion,
  extraSettings,
}: Settings): Settings {
  return { mainFile, cadType, cadVersion, rendererType, rendererVersion, extraSettings }
}

/** A hash of files (in path order) and of the settings they build and render with: a draft's or a release's. */
export function versionOf(settings: Settings, files: Pick<ContentFile, 'path' | 'blobHash'>[]): string {
  return hashOf({ ...settingsOf(settings), files: files.map((file) => [file.path, file.blobHash]) })
}

/**
 * The draft as it is now, with its version. A preparation records the version it prepared;
 * publishing takes only that one.
 */
export async function readDraft(configuratorId: string, client: Prisma.TransactionClient = db) {
  const configurator = await client.configurator.findUnique({ where: { id: configuratorId } })
  if (!configurator) return null
  const files = await client.configuratorFile.findMany({ where: { configuratorId }, orderBy: { path: 'asc' } })
  return { configurator, files, version: versionOf(configurator, files) }
}
