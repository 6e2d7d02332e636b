import { AppError, ValidationError } from '@/lib/api/errors'
import { cadVersions, defaultCadVersion } from '@/lib/cad/engine-versions'
import { DEFAULT_CAD_TYPE } from '@/lib/cad/engines'
import {
  ZExtraSettings,
  type ConfiguratorDto,
  type CreateConfiguratorInput,
  type ExtraSettings,
  type UpdateConfiguratorInput,
} from '@/lib/configurators/schemas'
import { db } from '@/lib/db'
import { formatDateTime } from '@/lib/format-date'
import type { Configurator } from '@/lib/generated/prisma/client'
import { parseColumn, toJsonInput } from '@/lib/json-columns'
import { RENDERER_VERSIONS } from '@/lib/renderers/renderer-types'
import { forgetTokens } from '@/lib/auth/tokens'
import { changeModel } from '@/lib/configurators/model-changes'
import { flatConfig, ProfileError } from '@/lib/slicing/profiles'

/** A configurator of the user's. */
export interface OwnedConfiguratorOptions {
  configuratorId: string
  userId: string
}

/** 422 naming `cadVersion` when this server has no such engine of the type (lib/cad/engine-versions.ts). */
function checkCadVersion(cadType: string, cadVersion: string | undefined): void {
  const versions = cadVersions(cadType).map(({ version }) => version)
  if (cadVersion !== undefined && !versions.includes(cadVersion))
    throw new ValidationError([{ path: ['cadVersion'], message: `must be one of ${versions.join(', ')}` }])
}

/** 422 naming what is wrong with the slicer profile: presets the server's bundles do not have, or an uploaded config refused (lib/slicing/profiles.ts). */
function checkSlicerProfile(extraSettings: ExtraSettings | undefined): void {
  const profile = extraSettings?.manufacturing?.slicer
  if (!profile) return
  try {
    flatConfig(profile)
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error
    const field = 'config' in profile ? 'config' : error.field
    const path = ['extraSettings', 'manufacturing', 'slicer', ...(field ? [field] : [])]
    throw new ValidationError([{ path, message: error.message }])
  }
}

export async function createConfigurator({ userId, input }: { userId: string; input: CreateConfiguratorInput }) {
  const cadType = input.cadType ?? DEFAULT_CAD_TYPE
  checkCadVersion(cadType, input.cadVersion)
  checkSlicerProfile(input.extraSettings)
  return db.configurator.create({
    data: {
      userId,
      name: input.name,
      description: input.description ?? '',
      mainFile: input.mainFile,
      cadType,
      cadVersion: input.cadVersion ?? defaultCadVersion(cadType),
      rendererType: input.rendererType ?? 'webgl',
      rendererVersion: input.rendererVersion ?? RENDERER_VERSIONS[0],
      extraSettings: toJsonInput(ZExtraSettings, input.extraSettings ?? {}),
    },
  })
}

export function listConfigurators({ userId }: { userId: string }) {
  return db.configurator.findMany({ where: { userId }, orderBy: { createdAt: 'desc' } })
}

/** A configurator the user owns; anyone else's is answered exactly like a missing one. */
export async function findOwnedConfigurator({ configuratorId, userId }: OwnedConfiguratorOptions) {
  const configurator = await db.configurator.findFirst({ where: { id: configuratorId, userId } })
  if (!configurator) throw new AppError('not_found', `Configurator ${configuratorId} not found`)
  return configurator
}

/** Changes only the fields sent. */
export async function updateConfigurator({
  input,
  ...owned
}: OwnedConfiguratorOptions & { input: UpdateConfiguratorInput }) {
  const existing = await findOwnedConfigurator(owned)
  checkCadVersion(input.cadType ?? existing.cadType, input.cadVersion)
  checkSlicerProfile(input.extraSettings)
  const { extraSettings, ...fields } = input
  return changeModel({ kind: 'model', subject: owned.configuratorId }, (tx) =>
    tx.configurator.update({
      where: { id: owned.configuratorId },
      data: { ...fields, ...(extraSettings && { extraSettings: toJsonInput(ZExtraSettings, extraSettings) }) },
    }),
  )
}

export async function deleteConfigurator(options: OwnedConfiguratorOptions): Promise<void> {
  await findOwnedConfigurator(options)
  await changeModel({ kind: 'configurator', subject: options.configuratorId }, (tx) =>
    tx.configurator.delete({ where: { id: options.configuratorId } }),
  )
  // Its applications and their tokens went with it.
  await forgetTokens()
}

export function toConfiguratorDto(configurator: Configurator): ConfiguratorDto {
  return {
    UUID: configurator.id,
    name: configurator.name,
    userUUID: configurator.userId,
    description: configurator.description,
    mainFile: configurator.mainFile,
    cadType: configurator.cadType,
    cadVersion: configurator.cadVersion,
    rendererType: configurator.rendererType,
    rendererVersion: configurator.rendererVersion,
    extraSettings: readExtraSettings(configurator),
    createdAt: formatDateTime(configurator.createdAt),
    updatedAt: formatDateTime(configurator.updatedAt),
  }
}

/** The extra settings of a configurator, or of the release a session's content is (`release`). */
export function readExtraSettings(
  content: Pick<Configurator, 'id' | 'extraSettings'> & { release?: { id: string } | null },
): ExtraSettings {
  const row = content.release ? { table: 'Release', id: content.release.id } : { table: 'Configurator', id: content.id }
  return parseColumn(ZExtraSettings, content.extraSettings, { ...row, column: 'extraSettings' })
}
