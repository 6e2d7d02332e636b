import path from 'node:path'
import { z } from 'zod'

const MB = 1024 * 1024

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data').transform((dir) => path.resolve(dir)),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  MAX_UPLOAD_BYTES: z.coerce.number().int().positive().default(50 * MB),
  USER_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(12 * 3600),
  ANONYMOUS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  SERVER_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
})

export type Env = z.infer<typeof ZEnv>

function parseEnv(): Env {
  const result = ZEnv.safeParse(process.env)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
  throw new Error(`invalid environment: ${problems.join('; ')}`)
}

export const env = parseEnv()
