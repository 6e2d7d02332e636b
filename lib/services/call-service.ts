import { AppError } from '@/lib/api/errors'
import { fillPath } from '@/lib/api/operation'
import type { Principal } from '@/lib/auth/authenticate'
import { env } from '@/lib/env'
import { forwardRequest } from '@/lib/services/forward-request'
import { callServiceGet } from '@/lib/services/operations'
import { addSessionFile, toSessionFileEntry } from '@/lib/sessions/session-files'
import { findSession } from '@/lib/sessions/sessions'

export interface CallServiceOptions {
  request: Request
  principal: Principal
  service: string
  /** The checked path segments after the service name. */
  path: string[]
}

// Built-in `files` service: PUT /services/files/upload/configsessions/{id}/{name} stores a session file.
async function callFilesService({ request, principal, path }: CallServiceOptions): Promise<Response> {
  const [command, collection, sessionId, name, ...rest] = path
  const isUpload =
    command === 'upload' && /^config[sS]essions$/.test(collection ?? '') && sessionId && name && rest.length === 0
  if (!isUpload)
    throw new AppError('not_found', 'The files service knows PUT upload/configsessions/{sessionId}/{fileName}')
  if (request.method !== 'PUT' && request.method !== 'POST') throw new AppError('method_not_allowed', 'Upload with PUT')
  if (!/^[0-9a-f-]{36}$/i.test(sessionId)) throw new AppError('not_found', `Session ${sessionId} not found`)
  const session = await findSession(sessionId, principal)
  const declaredSize = Number(request.headers.get('content-length') ?? 0)
  const file = await addSessionFile({
    sessionId: session.id,
    configurator: session.configurator,
    name,
    body: request.body,
    declaredSize,
  })
  return Response.json(toSessionFileEntry(file), { status: 202 })
}

/** Runs the built-in service or forwards to a configured one; unknown names are 404. */
export async function callService(options: CallServiceOptions): Promise<Response> {
  if (options.service === 'files') return callFilesService(options)
  const baseUrl = env.SERVICES.get(options.service)
  if (!baseUrl) throw new AppError('not_found', `No service named ${options.service}`)
  const { request, service, path } = options
  return forwardRequest({
    request,
    baseUrl,
    path: path.join('/'),
    publicPath: `/api${fillPath(callServiceGet.path, { service, path: [''] })}`,
    timeoutMs: env.SERVICE_TIMEOUT_SECONDS * 1000,
  })
}
