import { readClientAddress } from '@/lib/api/client-address'
import { route } from '@/lib/endpoints/route'
import { login } from '@/lib/auth/login'
import * as operations from '@/lib/auth/operations'

// POST /auth/login - email and password for a user token
export const POST = route(
  operations.login,
  async ({ request, body }) => (await login({ ...body, clientAddress: readClientAddress(request) })).grant,
)
