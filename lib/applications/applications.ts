import { randomBytes } from 'node:crypto'
import { AppError } from '@/lib/api/errors'
import type { ApplicationDto, RegisterApplicationInput } from '@/lib/applications/schemas'
import { findOwnedConfigurator, type OwnedConfiguratorOptions } from '@/lib/configurators/configurators'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { formatDateTime } from '@/lib/format-date'
import type { Application } from '@/lib/generated/prisma/client'
import { forgetTokens } from '@/lib/auth/tokens'
import { forgetSessionRows } from '@/lib/sessions/session-rows'

/** An application of one of the user's configurators. */
export interface OwnedApplicationOptions {
  applicationId: string
  userId: string
}

export async function registerApplication({
  input,
  ...owned
}: OwnedConfiguratorOptions & { input: RegisterApplicationInput }) {
  await findOwnedConfigurator(owned)
  return db.application.create({
    data: {
      ...input,
      configuratorId: owned.configuratorId,
      key: `pk_${randomBytes(18).toString('base64url')}`,
      secretKey: `sk_${randomBytes(32).toString('base64url')}`,
    },
  })
}

export async function listApplications(options: OwnedConfiguratorOptions) {
  await findOwnedConfigurator(options)
  return db.application.findMany({ where: { configuratorId: options.configuratorId }, orderBy: { createdAt: 'asc' } })
}

export async function findOwnedApplication({ applicationId, userId }: OwnedApplicationOptions) {
  const application = await db.application.findFirst({ where: { id: applicationId, configurator: { userId } } })
  if (!application) throw new AppError('not_found', `Application ${applicationId} not found`)
  return application
}

/** The application an embed page is for, with the configurator it shows; null for an unknown key (or a demo switched off). */
export async function findEmbedApplication(key: string) {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(key)) return null
  return db.application.findUnique({
    where: { key, ...(!env.PUBLIC_DEMOS && { publicDemo: false }) },
    select: {
      domain: true,
      secureModel: true,
      configurator: { select: { id: true, name: true, description: true, cadType: true } },
    },
  })
}

/** The demos a visitor may try signed out (landing page): each one's customer page through its application. */
export async function listPublicDemos() {
  if (!env.PUBLIC_DEMOS) return []
  return db.application.findMany({
    where: { publicDemo: true },
    select: { key: true, configurator: { select: { name: true, description: true } } },
    orderBy: { createdAt: 'asc' },
  })
}

/** Deleting an application also revokes every token issued with its keys (cascade). */
export async function deleteApplication(options: OwnedApplicationOptions): Promise<void> {
  await findOwnedApplication(options)
  await db.application.delete({ where: { id: options.applicationId } })
  forgetSessionRows()
  await forgetTokens()
}

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
