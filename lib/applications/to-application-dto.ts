import type { ApplicationDto } from '@/lib/applications/schemas'
import { formatDateTime } from '@/lib/format-date'
import type { Application } from '@/lib/generated/prisma/client'

export function toApplicationDto(application: Application): ApplicationDto {
  return {
    UUID: application.id,
    name: application.name,
    licenseUUID: application.licenseUUID,
    configuratorUUID: application.configuratorId,
    domain: application.domain,
    key: application.key,
    secretKey: application.secretKey,
    secureInit: application.secureInit,
    secureModel: application.secureModel,
    createdAt: formatDateTime(application.createdAt),
    updatedAt: formatDateTime(application.updatedAt),
  }
}
