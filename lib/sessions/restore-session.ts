import { z } from 'zod'
import { AppError, ValidationError, zodFields } from '@/lib/api/errors'
import { assertNoNul, parseUntrustedJson } from '@/lib/api/untrusted-json'
import type { Principal } from '@/lib/auth/authenticate'
import { db } from '@/lib/db'
import { addSessionFile, checkSessionFileQuota } from '@/lib/sessions/session-files'
import { setParameters } from '@/lib/sessions/session-model'
import { forgetSessionRows } from '@/lib/sessions/session-rows'
import { createSession } from '@/lib/sessions/sessions'
import { readZip } from '@/lib/storage/read-zip'

const ZSavedParameters = z.record(
  z.string(),
  z.looseObject({
    type: z.string().optional(),
    value: z.union([z.number(), z.string(), z.boolean(), z.array(z.number())]),
  }),
)
const MAX_PARAMETERS_BYTES = 1024 * 1024
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
  // The rest of a saved session (configurator files, models, log) is never unpacked.
  const entries = readZip(zip, {
    include: (name) => name === 'parameters.json' || SESSION_FILE.test(name),
    // Refused on the declared sizes, before anything is inflated; the same quota holds after.
    check: (files) => {
      checkSessionFileQuota(files.filter(({ name }) => SESSION_FILE.test(name)).map(({ size }) => size))
      if (files.some(({ name, size }) => name === 'parameters.json' && size > MAX_PARAMETERS_BYTES)) {
        throw new AppError('payload_too_large', `parameters.json may have at most ${MAX_PARAMETERS_BYTES} bytes`)
      }
    },
  })
  const parametersJson = entries.get('parameters.json')
  if (!parametersJson)
    throw new ValidationError([{ path: ['parameters.json'], message: 'the zip has no parameters.json' }])
  let saved: z.infer<typeof ZSavedParameters>
  try {
    saved = ZSavedParameters.parse(parseUntrustedJson(Buffer.from(parametersJson).toString('utf8')))
  } catch (error) {
    // The zip itself was well-formed: what is wrong is its content.
    throw new ValidationError(
      error instanceof z.ZodError
        ? zodFields(error, ['parameters.json'])
        : [{ path: ['parameters.json'], message: (error as Error).message }],
    )
  }
  assertNoNul(saved, ['parameters.json'])

  const session = await createSession({ configuratorId, principal })
  try {
    const newIds = new Map<string, string>()
    for (const [name, data] of entries) {
      const match = SESSION_FILE.exec(name)
      if (!match?.[1] || !match[2]) continue
      const file = await addSessionFile({
        sessionId: session.id,
        configurator: session.configurator,
        name: match[2],
        body: new Blob([new Uint8Array(data)]).stream(),
        declaredSize: data.byteLength,
      })
      newIds.set(match[1], file.id)
    }
    const body = Object.fromEntries(
      Object.entries(saved).map(([key, { type, value }]) => [
        key,
        { value: type === 'file' && value !== '' ? (newIds.get(String(value)) ?? value) : value },
      ]),
    )
    await setParameters(session, body)
    return session
  } catch (error) {
    await db.configSession.delete({ where: { id: session.id } })
    forgetSessionRows(session.id)
    throw error
  }
}
