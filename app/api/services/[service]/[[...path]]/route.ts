import { route } from '@/lib/endpoints/route'
import { callService } from '@/lib/services/call-service'
import * as operations from '@/lib/services/operations'
import { rawPathAfter } from '@/lib/storage/file-path'

function handler(
  operation: typeof operations.callServiceGet | typeof operations.callServicePost | typeof operations.callServicePut,
) {
  return route(operation, ({ request, principal, params }) =>
    callService({
      request,
      principal,
      service: params.service,
      path: rawPathAfter(request, `/services/${encodeURIComponent(params.service)}/`),
    }),
  )
}

// GET|POST|PUT /services/{service}/{command...} - forwarded to the named extra service
export const GET = handler(operations.callServiceGet)
export const POST = handler(operations.callServicePost)
export const PUT = handler(operations.callServicePut)
