import os from 'node:os'
import path from 'node:path'
import proxyAddr from 'proxy-addr'
import { z } from 'zod'
import { ZEmail } from '@/lib/email'

const MB = 1024 * 1024

const ZEnv = z
  .object({
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    /** On SIGTERM/SIGINT, how long requests in flight and the shutdown steps may take before the exit. */
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
    DATA_DIR: z
      .string()
      .min(1)
      .default('./data')
      .transform((dir) => path.resolve(dir)),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    ADMIN_EMAIL: ZEmail.optional(),
    ADMIN_PASSWORD: z.string().min(8).optional(),
    /** An admin's access token the admin commands (`npm run library`, `npm run backup`) use on a running server. */
    PARAFORM_TOKEN: z.string().min(1).optional(),
    MAX_UPLOAD_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(50 * MB),
    /** A customer's files: each, all of one session together, and how many a session holds. */
    SESSION_FILE_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(20 * MB),
    SESSION_FILES_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(50 * MB),
    SESSION_FILES_MAX_COUNT: z.coerce.number().int().positive().default(20),
    USER_TOKEN_TTL_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(12 * 3600),
    ANONYMOUS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
    SERVER_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(3600),
    /** Proxies (addresses or CIDRs, comma-separated) whose X-Forwarded-For names the client. */
    TRUST_PROXY: z
      .string()
      .default('')
      .transform((text) =>
        text
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .refine(isProxyList, 'must be IP addresses or CIDRs, comma-separated'),
    /** Failed logins an account or a client address may have before each further one blocks it for a doubling time. */
    LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
    LOGIN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
    LOGIN_BLOCK_SECONDS: z.coerce.number().int().min(1).default(30),
    LOGIN_BLOCK_MAX_SECONDS: z.coerce.number().int().min(1).default(3600),
    /** Anonymous tokens (renewals included) a minute, per application key and per client address. */
    ANONYMOUS_TOKENS_PER_MINUTE_PER_KEY: z.coerce.number().int().min(1).default(1200),
    ANONYMOUS_TOKENS_PER_MINUTE_PER_ADDRESS: z.coerce.number().int().min(1).default(120),
    SESSION_KEY_TTL_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(7 * 24 * 3600),
    /** CAD builds this process runs at once; 0 (with DATABASE_URL) leaves them to `npm run worker` processes. */
    BUILD_WORKERS: z.coerce.number().int().min(0).max(64).default(os.availableParallelism()),
    BUILD_TIME_LIMIT_SECONDS: z.coerce.number().positive().max(3600).default(60),
    BUILD_MEMORY_LIMIT_MB: z.coerce.number().int().min(64).max(4095).default(2048),
    /** PrusaSlicer's binary and its vendor bundles, for the quote's slice (docs/slicing.md). */
    PRUSA_SLICER: z.string().min(1).default('/usr/bin/prusa-slicer'),
    PRUSA_SLICER_PROFILES: z.string().min(1).default('/usr/share/PrusaSlicer/profiles'),
    /** Folders whose fonts builds may use, `:`-separated; read by lib/cad/fonts/host-fonts.ts. */
    FONT_DIRS: z.string().default('/usr/share/fonts:/usr/local/share/fonts'),
    /** CAD build time an anonymous customer (all its sessions) may use per window; past it 429. */
    CUSTOMER_BUILD_SECONDS: z.coerce.number().positive().default(300),
    CUSTOMER_BUILD_WINDOW_SECONDS: z.coerce.number().int().positive().default(600),
    BUILD_CACHE_MB: z.coerce.number().int().min(1).default(1024),
    // An S3-compatible bucket for files and built meshes, shared by every instance; else DATA_DIR.
    S3_BUCKET: z.string().min(1).optional(),
    S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_FORCE_PATH_STYLE: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
    /** The bearer token `GET /metrics` (and a worker's METRICS_PORT) answers; unset, metrics answer 404. */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** A build worker's (`npm run worker`) metrics port; web instances serve metrics on PORT. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Demo configurators on first start; by default only on the embedded database. */
    SEED_DEMO: z.enum(['true', 'false']).optional(),
    /** The seeded demos' customer pages open to visitors from the landing page; false hides them (404, tokens refused). */
    PUBLIC_DEMOS: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
    /** Prepare a model in the background after each change (lib/sessions/preparation.ts). */
    PREPARE_MODELS: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
    SERVICE_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
    /** Server-side images: warm headless Chromium pages, and requests that may wait for one. */
    RENDER_PAGES: z.coerce.number().int().min(1).max(32).default(2),
    RENDER_QUEUE: z.coerce.number().int().min(0).max(1000).default(8),
    RENDER_TIME_LIMIT_SECONDS: z.coerce.number().positive().max(600).default(30),
    CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
    /** Where the headless browser reaches this server; default http://127.0.0.1:PORT. */
    RENDER_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * `host:port` pairs, comma-separated, that webhooks may reach although they are private or
     * loopback addresses (a shop's back end beside this server); never this server itself.
     */
    WEBHOOK_ALLOWED_HOSTS: z
      .string()
      .default('')
      .transform((text) =>
        text
          .split(',')
          .map((entry) => entry.trim().toLowerCase())
          .filter(Boolean),
      )
      .refine(
        (entries) => entries.every((entry) => /^([a-z0-9.-]+|\[[0-9a-f:.]+\]):\d{1,5}$/.test(entry)),
        'must be host:port pairs separated by commas',
      ),
    /** The demo shop (demo/shop) on its own port: by default PORT + 1 on the embedded database, off (0) with DATABASE_URL. */
    DEMO_SHOP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** The demo shop's back end answers 500 to each webhook message's first delivery, to show retries (the e2e spec). */
    DEMO_SHOP_FAIL_FIRST_WEBHOOK: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
    /** Extra services as JSON: {"name": "http://host:port/base"}. */
    SERVICES: z
      .string()
      .default('{}')
      .transform((text, context) => {
        const result = z
          .record(z.string().regex(/^[a-z0-9][a-z0-9-]*$/), z.url({ protocol: /^https?$/ }))
          .safeParse(safeJson(text))
        // A Map, so that a name like `constructor` or `__proto__` finds no inherited entry.
        if (result.success) return new Map(Object.entries(result.data))
        context.addIssue({ code: 'custom', message: 'must be a JSON object of service name to http(s) base URL' })
        return z.NEVER
      }),
  })
  .refine((settings) => settings.BUILD_WORKERS > 0 || settings.DATABASE_URL !== undefined, {
    path: ['BUILD_WORKERS'],
    message: 'may be 0 only with DATABASE_URL, where `npm run worker` processes build',
  })
  .transform((settings) => {
    const DEMO_SHOP_PORT = settings.DEMO_SHOP_PORT ?? (settings.DATABASE_URL ? 0 : settings.PORT + 1)
    // The demo shop's back end is on loopback: its webhook is allowed as the operator would allow a shop's.
    const shop = DEMO_SHOP_PORT > 0 ? [`localhost:${DEMO_SHOP_PORT}`] : []
    return { ...settings, DEMO_SHOP_PORT, WEBHOOK_ALLOWED_HOSTS: [...settings.WEBHOOK_ALLOWED_HOSTS, ...shop] }
  })

function isProxyList(entries: string[]): boolean {
  try {
    proxyAddr.compile(entries)
    return true
  } catch {
    return false
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export type Env = z.infer<typeof ZEnv>

/** Every setting's name, for the table in docs/configuration.md (checked by lib/env.test.ts). */
export const SETTING_NAMES = Object.keys(ZEnv.in.shape)

/** Settings from the environment by `schema`; what does not fit ends the start with one line naming it. */
export function parseSettings<Settings>(schema: z.ZodType<Settings>): Settings {
  const result = schema.safeParse(process.env)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
  throw new Error(`invalid environment: ${problems.join('; ')}`)
}

/** The server's settings; a CAD system's own are its (lib/cad/engines.ts, CAD_SETTING_NAMES). */
export const env = parseSettings(ZEnv)
