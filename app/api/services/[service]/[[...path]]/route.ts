import { route } from '@/lib/api/route'
import { callService } from '@/lib/services/call-service'
import * as operations from '@/lib/services/operations'
import { parseEncodedPath } from '@/lib/storage/file-path'

// The segments after /services/{service}/, checked on the raw URL like file paths.
function servicePath(request: Request, service: string): string[] {
  const { pathname } = new URL(request.url)
  const rest = pathname.slice(pathname.indexOf(`/services/${service}`) + `/services/${service}`.length).replace(/^\//, '')
  return rest === '' ? [] : parseEncodedPath(rest)
}

function handler(operation: typeof operations.callServiceGet | typeof operations.callServicePost | typeof operations.callServicePut) {
  return route(operation, ({ request, principal, params }) =>
    callService({ request, principal, service: params.service, path: servicePath(request, encodeURIComponent(params.service)) }),
  )
}

// GET|POST|PUT /services/{service}/{command...} - forwarded to the named extra service
export const GET = handler(operations.callServiceGet)
export const POST = handler(operations.callServicePost)
export const PUT = handler(operations.callServicePut)
