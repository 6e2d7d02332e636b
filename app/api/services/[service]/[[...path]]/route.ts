import { apiPath } from '@/lib/endpoints/client'
import { route } from '@/lib/endpoints/route'
import { callExtraService, callFilesService } from '@/lib/services/call-service'
import * as operations from '@/lib/services/operations'
import { rawPathAfter } from '@/lib/storage/file-path'

function handler(
  operation: typeof operations.callServiceGet | typeof operations.callServicePost | typeof operations.callServicePut,
) {
  return route(operation, async ({ request, principal, params }) => {
    const { service } = params
    const path = rawPathAfter(request, `/services/${encodeURIComponent(service)}/`)
    if (service === 'files') return Response.json(await callFilesService({ request, principal, path }), { status: 202 })
    const publicPath = apiPath('callServiceGet', { params: { service, path: [''] } })
    return callExtraService({ request, service, path, publicPath })
  })
}

// GET|POST|PUT /services/{service}/{command...} - the built-in files service, or forwarded to the named extra service
export const GET = handler(operations.callServiceGet)
export const POST = handler(operations.callServicePost)
export const PUT = handler(operations.callServicePut)
