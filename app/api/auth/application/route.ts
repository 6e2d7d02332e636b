import { route } from '@/lib/endpoints/route'
import { issueServerToken } from '@/lib/applications/application-tokens'
import * as operations from '@/lib/auth/operations'

// POST /auth/application - key and secretKey for a shop back end's server token
export const POST = route(operations.issueServerToken, ({ body }) => issueServerToken(body))
