import { route } from '@/lib/api/route'
import { issueServerToken } from '@/lib/auth/issue-server-token'
import * as operations from '@/lib/auth/operations'

// POST /auth/application - key and secretKey for a shop back end's server token
export const POST = route(operations.issueServerToken, ({ body }) => issueServerToken(body.key, body.secretKey))
