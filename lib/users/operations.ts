import { defineOperation } from '@/lib/api/operation'
import { ZCreateUser, ZUser } from '@/lib/users/schemas'

export const createUser = defineOperation({
  id: 'createUser',
  method: 'POST',
  path: '/users',
  summary: 'Create a user (admins only)',
  tag: 'Users',
  auth: 'admin',
  body: ZCreateUser,
  status: 201,
  response: ZUser,
  errors: ['conflict'],
})
