import { AppError } from '@/lib/api/errors'
import { hashPassword } from '@/lib/auth/password'
import { db } from '@/lib/db'
import type { CreateUserInput } from '@/lib/users/schemas'

export async function createUser({ email, password, role }: CreateUserInput) {
  const existing = await db.user.findUnique({ where: { email } })
  if (existing) throw new AppError('conflict', `A user with email ${email} exists already`)
  const user = await db.user.create({ data: { email, role, passwordHash: await hashPassword(password) } })
  return { UUID: user.id, email: user.email, role: user.role }
}
