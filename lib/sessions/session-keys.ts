import { createHmac, timingSafeEqual } from 'node:crypto'
import { loadSigningKey } from '@/lib/auth/tokens'
import { env } from '@/lib/env'

export type KeyPurpose = 'model' | 'rendering' | 'snapshot'

function signature(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(`session-key:${body}`).digest('base64url')
}

/** `modelKey`/`renderingKey` (and a snapshot's `modelKey`): signed, expiring, valid for one session (snapshot) and one purpose only. */
export async function signSessionKey(sessionId: string, purpose: KeyPurpose): Promise<string> {
  const expires = Math.floor(Date.now() / 1000) + env.SESSION_KEY_TTL_SECONDS
  const body = `${purpose}.${sessionId}.${expires}`
  return `${body}.${signature(await loadSigningKey(), body)}`
}

export async function isValidSessionKey(key: string, sessionId: string, purpose: KeyPurpose): Promise<boolean> {
  const [keyPurpose, keySession, expires, given, extra] = key.split('.')
  if (keyPurpose !== purpose || keySession !== sessionId || !expires || !given || extra !== undefined) return false
  if (!/^\d+$/.test(expires) || Number(expires) * 1000 <= Date.now()) return false
  const expected = Buffer.from(signature(await loadSigningKey(), `${purpose}.${sessionId}.${expires}`))
  const actual = Buffer.from(given)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}
