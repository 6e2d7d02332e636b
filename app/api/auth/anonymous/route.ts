import { route } from '@/lib/api/route'
import { issueAnonymousToken } from '@/lib/auth/issue-anonymous-token'
import * as operations from '@/lib/auth/operations'

// POST /auth/anonymous - X-API-KEY for an end customer's short-lived token
export const POST = route(operations.issueAnonymousToken, ({ request }) =>
  issueAnonymousToken({ apiKey: request.headers.get('x-api-key'), origin: request.headers.get('origin') }),
)
