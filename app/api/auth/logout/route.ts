import { route } from '@/lib/endpoints/route'
import * as operations from '@/lib/auth/operations'
import { revokeToken } from '@/lib/auth/tokens'

// POST /auth/logout - revoke the token used for this request
export const POST = route(operations.logout, async ({ principal }) => {
  if (principal) await revokeToken(principal.tokenId)
})
