import { z } from 'zod'
import { ZEmail } from '@/lib/email'

export const ZCreateUser = z.object({
  email: ZEmail.transform((email) => email.toLowerCase()),
  password: z.string().min(8).max(1024),
  role: z.enum(['admin', 'designer']).default('designer'),
})
export type CreateUserInput = z.infer<typeof ZCreateUser>

export const ZUser = z.object({ UUID: z.uuid(), email: ZEmail, role: z.enum(['admin', 'designer']) })
