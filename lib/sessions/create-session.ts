import { AppError } from '@/lib/api/errors'
import type { Principal } from '@/lib/auth/authenticate'
import { db } from '@/lib/db'
import type { RenderSession } from '@/lib/generated/prisma/client'
import type { LoadedSession } from '@/lib/sessions/find-session'
import { readExtraSettings } from '@/lib/sessions/model-inputs'

export interface CreateSessionOptions {
  configuratorId: string
  principal: Principal
}

/** Who may open a session: the owner, or a token of one of the configurator's applications. */
async function findConfiguratorFor(configuratorId: string, principal: Principal) {
  const configurator = await db.configurator.findUnique({ where: { id: configuratorId } })
  const isOwner = principal.kind === 'user' && configurator?.userId === principal.user.id
  const isApplication = principal.kind !== 'user' && principal.application.configuratorId === configuratorId
  if (!configurator || !(isOwner || isApplication)) throw new AppError('not_found', `Configurator ${configuratorId} not found`)
  if (principal.kind === 'anonymous' && principal.application.secureInit) {
    throw new AppError('forbidden', "This application needs secure initialization: create sessions with the shop's server token")
  }
  return configurator
}

export async function createSession({ configuratorId, principal }: CreateSessionOptions): Promise<LoadedSession & { renderers: RenderSession[] }> {
  const configurator = await findConfiguratorFor(configuratorId, principal)
  const rendererTypes = [...new Set([configurator.rendererType, ...(readExtraSettings(configurator).renderers ?? [])])]
  const session = await db.configSession.create({
    data: {
      configuratorId,
      applicationId: principal.kind === 'user' ? null : principal.application.id,
      userId: principal.kind === 'user' ? principal.user.id : null,
      identityId: principal.kind === 'anonymous' ? principal.identityId : null,
      renderers: { create: rendererTypes.map((rendererType) => ({ rendererType })) },
    },
    include: { renderers: { orderBy: { createdAt: 'asc' } } },
  })
  return { ...session, configurator, application: principal.kind === 'user' ? null : principal.application }
}
