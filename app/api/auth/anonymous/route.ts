import { readClientAddress } from '@/lib/api/client-address'
import { route } from '@/lib/endpoints/route'
import { issueAnonymousToken } from '@/lib/applications/application-tokens'
import * as operations from '@/lib/auth/operations'

// POST /auth/anonymous - X-API-KEY for an end customer's short-lived token; the current one renews it
export const POST = route(operations.issueAnonymousToken, ({ request, principal }) =>
  issueAnonymousToken({
    apiKey: request.headers.get('x-api-key'),
    origin: request.headers.get('origin'),
    host: request.headers.get('host'),
    principal,
    clientAddress: readClientAddress(request),
  }),
)
