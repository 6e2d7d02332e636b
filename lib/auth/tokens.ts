import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { db } from '@/lib/db'
import { rememberedRows } from '@/lib/remembered-rows'
import type { TokenKind } from '@/lib/generated/prisma/client'

const SIGNING_KEY_SETTING = 'token-signing-key'

let signingKey: Promise<Buffer> | undefined

/** The HMAC key lives in the database so every instance on one database accepts the same tokens. */
export function loadSigningKey(): Promise<Buffer> {
  signingKey ??= (async () => {
    await db.setting.createMany({
      data: [{ key: SIGNING_KEY_SETTING, value: randomBytes(32).toString('hex') }],
      skipDuplicates: true,
    })
    const setting = await db.setting.findUniqueOrThrow({ where: { key: SIGNING_KEY_SETTING } })
    return Buffer.from(setting.value, 'hex')
  })().catch((error: unknown) => {
    signingKey = undefined
    throw error
  })
  return signingKey
}

const ZPayload = z.object({ jti: z.uuid(), kind: z.enum(['user', 'anonymous', 'server']), exp: z.number().int() })
type Payload = z.infer<typeof ZPayload>

function sign(key: Buffer, body: string): Buffer {
  return createHmac('sha256', key).update(body).digest()
}

export interface TokenGrant {
  accessToken: string
  tokenType: 'Bearer'
  expiresIn: number
}

export interface IssueTokenOptions {
  kind: TokenKind
  ttlSeconds: number
  userId?: string
  applicationId?: string
  /** An anonymous token's identity; a new identity (this token's id) when not given. */
  identityId?: string
}

export async function issueToken({
  kind,
  ttlSeconds,
  userId,
  applicationId,
  identityId,
}: IssueTokenOptions): Promise<TokenGrant> {
  const key = await loadSigningKey()
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000)
  const id = randomUUID()
  const row = await db.authToken.create({
    data: { id, kind, userId, applicationId, identityId: kind === 'anonymous' ? (identityId ?? id) : null, expiresAt },
  })
  const payload: Payload = { jti: row.id, kind, exp: Math.floor(expiresAt.getTime() / 1000) }
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url')
  return { accessToken: `${body}.${sign(key, body).toString('base64url')}`, tokenType: 'Bearer', expiresIn: ttlSeconds }
}

/** The token's row with its user or application; the signed kind says which, so the other is not looked up. */
function readToken(id: string, kind: TokenKind) {
  return kind === 'user'
    ? db.authToken
        .findUnique({ where: { id }, include: { user: true } })
        .then((found) => found && { ...found, application: null })
    : db.authToken
        .findUnique({ where: { id }, include: { application: true } })
        .then((found) => found && { ...found, user: null })
}

// Every request of a customer carries the same token: its row (with its application) is
// remembered, so a request reads no row to know who asks. Whatever changes what a remembered row
// says (a revocation, an application's change or deletion) forgets them all, on every instance.
const tokens = rememberedRows<NonNullable<Awaited<ReturnType<typeof readToken>>>>('tokens', 'paraform_tokens_changed', {
  entries: 10_000,
  maxAgeMs: 60_000,
})

/** Call after changing a token or an application: every instance reads token rows anew. */
export function forgetTokens(): Promise<void> {
  return tokens.forget()
}

/** The token's database row when its signature, expiry and revocation state all check out. */
export async function verifyToken(token: string) {
  const [body, signature, extra] = token.split('.')
  if (!body || !signature || extra !== undefined) return null
  const expected = sign(await loadSigningKey(), body)
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  const payload = ZPayload.safeParse(safeJson(Buffer.from(body, 'base64url').toString()))
  if (!payload.success || payload.data.exp * 1000 <= Date.now()) return null
  const row = await tokens.get(payload.data.jti, () => readToken(payload.data.jti, payload.data.kind))
  if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null
  return row
}

export async function revokeToken(id: string): Promise<void> {
  await db.authToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } })
  await forgetTokens()
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
