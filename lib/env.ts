import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { ZEmail } from '@/lib/api/schemas'

const MB = 1024 * 1024

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data').transform((dir) => path.resolve(dir)),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  ADMIN_EMAIL: ZEmail.optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  MAX_UPLOAD_BYTES: z.coerce.number().int().positive().default(50 * MB),
  USER_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(12 * 3600),
  ANONYMOUS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  SERVER_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
  SESSION_KEY_TTL_SECONDS: z.coerce.number().int().positive().default(7 * 24 * 3600),
  BUILD_WORKERS: z.coerce.number().int().min(1).max(64).default(os.availableParallelism()),
  BUILD_TIME_LIMIT_SECONDS: z.coerce.number().positive().max(3600).default(60),
  BUILD_MEMORY_LIMIT_MB: z.coerce.number().int().min(64).max(4095).default(2048),
  BUILD_CACHE_MB: z.coerce.number().int().min(1).default(1024),
  /** Demo configurators on first start; by default only on the embedded database. */
  SEED_DEMO: z.enum(['true', 'false']).optional(),
  SERVICE_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
  /** Server-side images: warm headless Chromium pages, and requests that may wait for one. */
  RENDER_PAGES: z.coerce.number().int().min(1).max(32).default(2),
  RENDER_QUEUE: z.coerce.number().int().min(0).max(1000).default(8),
  RENDER_TIME_LIMIT_SECONDS: z.coerce.number().positive().max(600).default(30),
  CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  /** Where the headless browser reaches this server; default http://127.0.0.1:PORT. */
  RENDER_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Extra services as JSON: {"name": "http://host:port/base"}. */
  SERVICES: z
    .string()
    .default('{}')
    .transform((text, context) => {
      const result = z.record(z.string().regex(/^[a-z0-9][a-z0-9-]*$/), z.url({ protocol: /^https?$/ })).safeParse(safeJson(text))
      if (result.success) return result.data
      context.addIssue({ code: 'custom', message: 'must be a JSON object of service name to http(s) base URL' })
      return z.NEVER
    }),
})

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export type Env = z.infer<typeof ZEnv>

function parseEnv(): Env {
  const result = ZEnv.safeParse(process.env)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
  throw new Error(`invalid environment: ${problems.join('; ')}`)
}

export const env = parseEnv()
