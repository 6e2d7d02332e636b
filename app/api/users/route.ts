import { route } from '@/lib/endpoints/route'
import { createUser } from '@/lib/users/users'
import * as operations from '@/lib/users/operations'

// POST /users - admins create users
export const POST = route(operations.createUser, ({ body }) => createUser(body))
