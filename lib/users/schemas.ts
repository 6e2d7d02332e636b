import { z } from 'zod'

export const ZCreateUser = z.object({
  email: z.email().transform((email) => email.toLowerCase()),
  password: z.string().min(8).max(1024),
  role: z.enum(['admin', 'designer']).default('designer'),
})
export type CreateUserInput = z.infer<typeof ZCreateUser>

export const ZUser = z.object({ UUID: z.uuid(), email: z.email(), role: z.enum(['admin', 'designer']) })
