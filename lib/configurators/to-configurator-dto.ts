import type { ConfiguratorDto } from '@/lib/configurators/schemas'
import { formatDateTime } from '@/lib/format-date'
import type { Configurator } from '@/lib/generated/prisma/client'

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
    extraSettings: configurator.extraSettings as Record<string, unknown>,
    createdAt: formatDateTime(configurator.createdAt),
    updatedAt: formatDateTime(configurator.updatedAt),
  }
}
