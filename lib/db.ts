import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { PrismaPg } from '@prisma/adapter-pg'
import pg from 'pg'
import { PrismaPGlite } from 'pglite-prisma-adapter'
import { lockEmbeddedDatabase } from '@/lib/embedded-lock'
import { env } from '@/lib/env'
import { PrismaClient } from '@/lib/generated/prisma/client'

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
        query: async <T,>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
        close: () => client.end(),
      }
    },
    close: () => prisma.$disconnect(),
  }
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
        query: async <T,>(sql: string, params?: unknown[]) => (await pglite.query<T>(sql, params)).rows,
        close: async () => {},
      }
    },
    async close() {
      await prisma.$disconnect()
      await pglite.close()
    },
  }
}

export function embeddedDatabaseDir(): string {
  return path.join(env.DATA_DIR, 'db')
}

// The custom server (server.ts) and Next's route bundles load this module separately;
// one process must hold exactly one database (PGlite allows one opener per directory).
// It opens on first use, not on import: `next build` imports route modules too.
const globalForDb = globalThis as unknown as { paraformDatabase?: Database }

export function getDatabase(): Database {
  globalForDb.paraformDatabase ??= env.DATABASE_URL ? openPostgres(env.DATABASE_URL) : openEmbedded(embeddedDatabaseDir())
  return globalForDb.paraformDatabase
}

/** The Prisma client, opened on first use. */
export const db = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const prisma = getDatabase().prisma
    const value: unknown = Reflect.get(prisma, property)
    return typeof value === 'function' ? value.bind(prisma) : value
  },
})
