import { AppError } from '@/lib/api/errors'
import { hashPassword } from '@/lib/auth/password'
import { db } from '@/lib/db'
import { Prisma } from '@/lib/generated/prisma/client'
import type { CreateUserInput } from '@/lib/users/schemas'

export async function createUser({ email, password, role }: CreateUserInput) {
  try {
    const user = await db.user.create({ data: { email, role, passwordHash: await hashPassword(password) } })
    return { UUID: user.id, email: user.email, role: user.role }
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new AppError('conflict', `A user with email ${email} exists already`)
    }
    throw error
  }
}
