import { AppError } from '@/lib/api/errors'
import type { Principal } from '@/lib/auth/authenticate'
import { env } from '@/lib/env'
import { forwardRequest } from '@/lib/services/forward-request'
import { addSessionFile, toSessionFileEntry } from '@/lib/sessions/session-files'
import { findSession } from '@/lib/sessions/sessions'

export interface CallServiceOptions {
  request: Request
  principal: Principal
  /** The checked path segments after the service name. */
  path: string[]
}

/** The built-in `files` service: PUT /services/files/upload/configsessions/{id}/{name} stores a session file. */
export async function callFilesService({ request, principal, path }: CallServiceOptions) {
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
  return toSessionFileEntry(file)
}

export interface ForwardOptions {
  request: Request
  service: string
  path: string[]
  /** Where the service is on this site: its redirects are made to point there. */
  publicPath: string
}

/** Forwards to a configured service (unknown names are 404): its answer, as a proxy passes it on, is the data here. */
export function callExtraService({ request, service, path, publicPath }: ForwardOptions): Promise<Response> {
  const baseUrl = env.SERVICES.get(service)
  if (!baseUrl) throw new AppError('not_found', `No service named ${service}`)
  return forwardRequest({
    request,
    baseUrl,
    path: path.join('/'),
    publicPath,
    timeoutMs: env.SERVICE_TIMEOUT_SECONDS * 1000,
  })
}
