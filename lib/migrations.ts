import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { SqlConnection } from '@/lib/db'

export const MIGRATIONS_DIR = path.join(process.cwd(), 'prisma/migrations')

// Any constant works as long as every instance uses the same one.
const MIGRATION_LOCK_ID = 72_616_017

// The table `prisma migrate deploy` keeps, so the standard CLI accepts our history later.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`

interface Migration {
  name: string
  sql: string
  checksum: string
}

async function readMigrations(dir: string): Promise<Migration[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true })
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
  return Promise.all(
    names.map(async (name) => {
      const sql = await fs.readFile(path.join(dir, name, 'migration.sql'), 'utf8')
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') }
    }),
  )
}

/**
 * Applies pending migrations, each in its own transaction, and returns the names applied.
 * A session-level advisory lock makes concurrent start-ups against one PostgreSQL wait for
 * each other, so every migration runs exactly once.
 */
export async function applyMigrations(sql: SqlConnection, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(dir)
  await sql.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID])
  try {
    await sql.exec(CREATE_MIGRATIONS_TABLE)
    const rows = await sql.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    )
    const applied = new Map(rows.map((row) => [row.migration_name, row.checksum]))
    const done: string[] = []
    for (const migration of migrations) {
      const checksum = applied.get(migration.name)
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new Error(`migration ${migration.name} was changed after it was applied`)
        }
        continue
      }
      await applyMigration(sql, migration)
      done.push(migration.name)
    }
    return done
  } finally {
    await sql.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID])
  }
}

async function applyMigration(sql: SqlConnection, migration: Migration): Promise<void> {
  await sql.exec('BEGIN')
  try {
    await sql.exec(migration.sql)
    await sql.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    )
    await sql.exec('COMMIT')
  } catch (error) {
    await sql.exec('ROLLBACK')
    throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error })
  }
}
