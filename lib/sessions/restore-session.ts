import { z } from 'zod'
import { AppError, describeZodError } from '@/lib/api/errors'
import type { Principal } from '@/lib/auth/authenticate'
import { db } from '@/lib/db'
import { addSessionFile } from '@/lib/sessions/add-session-file'
import { createSession } from '@/lib/sessions/create-session'
import { setParameters } from '@/lib/sessions/set-parameters'
import { readZip } from '@/lib/storage/read-zip'

const ZSavedParameters = z.record(z.string(), z.looseObject({ type: z.string().optional(), value: z.union([z.number(), z.string(), z.boolean()]) }))
const SESSION_FILE = /^files\/([A-Za-z0-9_-]{1,32})\/([^/]+)$/

export interface RestoreSessionOptions {
  configuratorId: string
  principal: Principal
  zip: Uint8Array
}

/**
 * A new session from a zip made by GET .../save: its session files and parameter values,
 * validated against the configurator's current model. On any error nothing is kept.
 */
export async function restoreSession({ configuratorId, principal, zip }: RestoreSessionOptions) {
  const entries = readZip(zip)
  const parametersJson = entries.get('parameters.json')
  if (!parametersJson) throw new AppError('unprocessable_entity', 'The zip has no parameters.json')
  let saved: z.infer<typeof ZSavedParameters>
  try {
    saved = ZSavedParameters.parse(JSON.parse(Buffer.from(parametersJson).toString('utf8')))
  } catch (error) {
    const reason = error instanceof z.ZodError ? describeZodError(error, 'parameters.json') : 'parameters.json is not valid JSON'
    throw new AppError('unprocessable_entity', reason)
  }

  const session = await createSession({ configuratorId, principal })
  try {
    const newIds = new Map<string, string>()
    for (const [name, data] of entries) {
      const match = SESSION_FILE.exec(name)
      if (!match?.[1] || !match[2]) continue
      const file = await addSessionFile({ sessionId: session.id, configuratorId, name: match[2], body: new Blob([new Uint8Array(data)]).stream(), declaredSize: data.byteLength })
      newIds.set(match[1], file.id)
    }
    const body = Object.fromEntries(
      Object.entries(saved).map(([key, { type, value }]) => [key, { value: type === 'file' && value !== '' ? (newIds.get(String(value)) ?? value) : value }]),
    )
    await setParameters(session, body)
    return session
  } catch (error) {
    await db.configSession.delete({ where: { id: session.id } })
    throw error
  }
}
