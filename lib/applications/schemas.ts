import { z } from 'zod'
import { ZDateTime } from '@/lib/api/schemas'

export const ZApplicationParams = z.object({ applicationId: z.uuid() })

// A host name with an optional port, as in an Origin header: shop.example.com or localhost:8080.
const HOST_PATTERN =
  /^(?=.{1,253}(:|$))([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/

export const ZRegisterApplication = z.object({
  name: z.string().trim().min(1).max(200),
  licenseUUID: z.string().max(200).default(''),
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .regex(HOST_PATTERN, 'must be a host name such as shop.example.com, optionally with :port'),
  secureInit: z.boolean().default(false),
  secureModel: z.boolean().default(false),
})
export type RegisterApplicationInput = z.infer<typeof ZRegisterApplication>

export const ZApplication = ZRegisterApplication.extend({
  UUID: z.uuid(),
  configuratorUUID: z.uuid(),
  key: z.string(),
  secretKey: z.string(),
  createdAt: ZDateTime,
  updatedAt: ZDateTime,
})
export type ApplicationDto = z.infer<typeof ZApplication>

export const ZApplicationSummary = ZApplication.omit({ secretKey: true })
