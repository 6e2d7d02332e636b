import { spawn } from 'node:child_process'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { PrismaPg } from '@prisma/adapter-pg'
import pg from 'pg'
import { PrismaPGlite } from 'pglite-prisma-adapter'
import { lockEmbeddedDatabase } from '@/lib/embedded-lock'
import { env } from '@/lib/env'
import { PrismaClient } from '@/lib/generated/prisma/client'
import { processSingleton } from '@/lib/process-singleton'

/** Plain SQL on the same database, for migrations and advisory locks. */
export interface SqlConnection {
  exec(sql: string): Promise<void>
  query<T>(sql: string, params?: unknown[]): Promise<T[]>
  close(): Promise<void>
}

interface Database {
  prisma: PrismaClient
  connect(): Promise<SqlConnection>
  close(): Promise<void>
  /** The whole database as its own dump tool writes it, consistent while it is in use (lib/backup). */
  dump(): AsyncIterable<Uint8Array>
}

export function openPostgres(url: string): Database {
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) })
  return {
    prisma,
    async connect() {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      return {
        exec: async (sql) => void (await client.query(sql)),
        query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
        close: () => client.end(),
      }
    },
    close: () => prisma.$disconnect(),
    dump: () => pgDump(url),
  }
}

/** pg_dump's custom format of the database at `url`: one snapshot, taken while others write. */
async function* pgDump(url: string): AsyncIterable<Uint8Array> {
  const child = spawn('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--dbname=${url}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let errors = ''
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()))
  const exited = new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve))
  for await (const chunk of child.stdout) yield chunk as Uint8Array
  const code = await exited.catch((error: Error) =>
    Promise.reject(new Error(`cannot run pg_dump (${error.message}); install PostgreSQL's client tools`)),
  )
  if (code !== 0) throw new Error(`pg_dump failed: ${errors.trim().split('\n').at(-1)}`)
}

function openEmbedded(dir: string): Database {
  lockEmbeddedDatabase(env.DATA_DIR)
  const pglite = new PGlite(dir)
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) })
  return {
    prisma,
    async connect() {
      return {
        exec: async (sql) => void (await pglite.exec(sql)),
        query: async <T>(sql: string, params?: unknown[]) => (await pglite.query<T>(sql, params)).rows,
        close: async () => {},
      }
    },
    async close() {
      await prisma.$disconnect()
      await pglite.close()
    },
    async *dump() {
      // PGlite's own dump of its data directory, taken between its queries.
      yield new Uint8Array(await (await pglite.dumpDataDir('gzip')).arrayBuffer())
    },
  }
}

export function embeddedDatabaseDir(): string {
  return path.join(env.DATA_DIR, 'db')
}

// The custom server (server.ts) and Next's route bundles load this module separately;
// one process must hold exactly one database (PGlite allows one opener per directory).
// It opens on first use, not on import: `next build` imports route modules too.
export function getDatabase(): Database {
  return processSingleton('database', () =>
    env.DATABASE_URL ? openPostgres(env.DATABASE_URL) : openEmbedded(embeddedDatabaseDir()),
  )
}

/** The Prisma client, opened on first use. */
export const db = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const prisma = getDatabase().prisma
    const value: unknown = Reflect.get(prisma, property)
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(prisma) : value
  },
})
