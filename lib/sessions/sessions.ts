import { AppError } from '@/lib/api/errors'
import type { Principal } from '@/lib/auth/authenticate'
import { db } from '@/lib/db'
import type { ConfigSession, RenderSession } from '@/lib/generated/prisma/client'
import { parseColumn } from '@/lib/json-columns'
import { type Values, ZValues } from '@/lib/cad/engine'
import { isValidSessionKey, type KeyPurpose, signSessionKey } from '@/lib/sessions/session-keys'
import { readExtraSettings } from '@/lib/configurators/configurators'
import { findConfiguratorRow } from '@/lib/configurators/model-memory'
import { forgetSessionRows, remember, readSessionRow, rememberWrite } from '@/lib/sessions/session-rows'
import { type ConfiguratorContent, contentOf } from '@/lib/releases/release-content'

/** The session with its configurator and application; the caller's application is not read again. */
async function load(sessionId: string, principal: Principal | null = null) {
  const session = await readSessionRow(sessionId)
  const row = session && (await findConfiguratorRow(session.configuratorId))
  if (!session || !row) return null
  const configurator = await contentOf(row, session.releaseId)
  const { applicationId } = session
  const known =
    principal && principal.kind !== 'user' && principal.application.id === applicationId ? principal.application : null
  return {
    ...session,
    values: storedValuesOf(session),
    configurator,
    background: isDesignerDraft(configurator),
    application:
      applicationId === null ? null : (known ?? (await db.application.findUnique({ where: { id: applicationId } }))),
  }
}

/** The values the session stores: only those set, the rest are the model's defaults. */
function storedValuesOf(session: Pick<ConfigSession, 'id' | 'values'>): Values {
  return parseColumn(ZValues, session.values, { table: 'ConfigSession', id: session.id, column: 'values' })
}

/** The draft of a published configurator is the designer's work: its builds go behind every customer's. */
function isDesignerDraft(configurator: ConfiguratorContent): boolean {
  return configurator.release === null && configurator.releaseId !== null
}

export type LoadedSession = NonNullable<Awaited<ReturnType<typeof load>>>

/**
 * The session, when the caller may use it: the configurator's owner, the server token of the
 * application the session was opened through, or the anonymous identity (end customer) that
 * opened it. Anyone else gets the same 404 as for a session that does not exist.
 */
export async function findSession(sessionId: string, principal: Principal | null): Promise<LoadedSession> {
  const session = await load(sessionId, principal)
  if (session === null || principal === null || !(await mayUse(session, principal)))
    throw new AppError('not_found', `Session ${sessionId} not found`)
  return session
}

async function mayUse(session: LoadedSession, principal: Principal): Promise<boolean> {
  if (principal.kind === 'user') return session.configurator.userId === principal.user.id
  if (session.applicationId !== principal.application.id) return false
  if (principal.kind === 'server') return true
  if (session.identityId === null) return claim(session, principal.identityId)
  return session.identityId === principal.identityId
}

// A session the shop's back end opened (secureInit) is handed to one customer: the first
// anonymous identity that uses it keeps it. The conditional update lets only one claim win.
async function claim(session: LoadedSession, identityId: string): Promise<boolean> {
  const { count } = await db.configSession.updateMany({
    where: { id: session.id, identityId: null },
    data: { identityId },
  })
  if (count === 1) {
    rememberWrite(session.id, { identityId })
    return true
  }
  forgetSessionRows(session.id)
  const current = await db.configSession.findUnique({ where: { id: session.id }, select: { identityId: true } })
  return current?.identityId === identityId
}

/** As findSession, but a `key` query parameter (modelKey or renderingKey) replaces the headers. */
export async function findSessionByKeyOrPrincipal(
  sessionId: string,
  principal: Principal | null,
  key: string | undefined,
  purpose: KeyPurpose,
): Promise<LoadedSession> {
  if (key === undefined) return findSession(sessionId, principal)
  if (!(await isValidSessionKey(key, sessionId, purpose)))
    throw new AppError('forbidden', `The key is not a valid ${purpose} key of this session`)
  const session = await load(sessionId)
  if (!session) throw new AppError('not_found', `Session ${sessionId} not found`)
  return session
}

export interface CreateSessionOptions {
  configuratorId: string
  principal: Principal
  /** The owner's draft link: the draft's files instead of the current release. */
  draft?: boolean
}

/** Who may open a session: the owner, or a token of one of the configurator's applications. */
async function findConfiguratorFor(configuratorId: string, principal: Principal) {
  const configurator = await db.configurator.findUnique({ where: { id: configuratorId } })
  const isOwner = principal.kind === 'user' && configurator?.userId === principal.user.id
  const isApplication = principal.kind !== 'user' && principal.application.configuratorId === configuratorId
  if (!configurator || !(isOwner || isApplication))
    throw new AppError('not_found', `Configurator ${configuratorId} not found`)
  if (principal.kind === 'anonymous' && principal.application.secureInit) {
    throw new AppError(
      'forbidden',
      "This application needs secure initialization: create sessions with the shop's server token",
    )
  }
  return configurator
}

/**
 * A new session of the configurator's current release (of its files as they are before the first
 * publish); the owner's draft link builds the draft, behind every customer's builds.
 */
export async function createSession({
  configuratorId,
  principal,
  draft = false,
}: CreateSessionOptions): Promise<LoadedSession & { renderers: RenderSession[] }> {
  const row = await findConfiguratorFor(configuratorId, principal)
  if (draft && principal.kind !== 'user')
    throw new AppError('forbidden', "Only the configurator's owner may open its draft")
  const configurator = await contentOf(row, draft ? null : row.releaseId)
  const rendererTypes = [...new Set([configurator.rendererType, ...(readExtraSettings(configurator).renderers ?? [])])]
  const session = await db.configSession.create({
    data: {
      configuratorId,
      applicationId: principal.kind === 'user' ? null : principal.application.id,
      userId: principal.kind === 'user' ? principal.user.id : null,
      identityId: principal.kind === 'anonymous' ? principal.identityId : null,
      releaseId: configurator.release?.id ?? null,
      renderers: { create: rendererTypes.map((rendererType) => ({ rendererType })) },
    },
    include: { renderers: { orderBy: { createdAt: 'asc' } } },
  })
  const { renderers: _, ...stored } = session
  remember(stored)
  return {
    ...session,
    values: storedValuesOf(session),
    configurator,
    background: isDesignerDraft(configurator),
    application: principal.kind === 'user' ? null : principal.application,
  }
}

export interface SessionDetailsOptions {
  sessionId: string
  /** The session's renderers, when known; otherwise read. */
  renderers?: RenderSession[]
}

/** What a client sees of a session: its renderers and fresh keys. */
export async function getSessionDetails({ sessionId, renderers }: SessionDetailsOptions) {
  const renderSessions =
    renderers ?? (await db.renderSession.findMany({ where: { sessionId }, orderBy: { createdAt: 'asc' } }))
  return {
    id: sessionId,
    renderingKey: await signSessionKey(sessionId, 'rendering'),
    modelKey: await signSessionKey(sessionId, 'model'),
    renderSessions: renderSessions.map((renderer) => ({ rendererType: renderer.rendererType, sessionId: renderer.id })),
  }
}
