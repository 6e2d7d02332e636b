import { z } from 'zod'
import { ZEmail } from '@/lib/email'

export const ZLogin = z.object({ email: ZEmail, password: z.string().min(1).max(1024) })

export const ZApplicationCredentials = z.object({
  key: z.string().min(1).max(200),
  secretKey: z.string().min(1).max(200),
})

export const ZTokenGrant = z.object({
  accessToken: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int().describe('seconds until the token expires'),
})

export const ZSessionUser = z.object({
  user: z.object({ id: z.uuid(), email: ZEmail, role: z.string() }),
})
