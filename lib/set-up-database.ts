import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import { AppError } from '@/lib/api/errors'
import { loadSigningKey } from '@/lib/auth/tokens'
import { db, embeddedDatabaseDir, getDatabase } from '@/lib/db'
import { seedDemoContent } from '@/lib/demo/seed-demo-content'
import { DatabaseInUseError } from '@/lib/embedded-lock'
import { env } from '@/lib/env'
import { logger } from '@/lib/log'
import { applyMigrations } from '@/lib/migrations'
import { migrateQueue } from '@/lib/queue/build-queue'
import { storage } from '@/lib/storage/object-storage'
import { claimStoragePlace } from '@/lib/storage/storage-place'
import { adminPasswordFile } from '@/lib/users/admin-password'
import { createUser } from '@/lib/users/users'

function describeDatabase(): string {
  if (!env.DATABASE_URL) return 'the embedded database'
  const url = new URL(env.DATABASE_URL)
  return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`
}

/**
 * Applies pending migrations: the app's, and with PostgreSQL the build queue's; then, with
 * PostgreSQL, checks that this process keeps its files where the others on that database do.
 */
export async function migrateDatabase(): Promise<string[]> {
  let migrations: string[]
  try {
    const sql = await getDatabase().connect()
    try {
      migrations = await applyMigrations(sql)
      if (env.DATABASE_URL) await migrateQueue()
    } finally {
      await sql.close()
    }
  } catch (error) {
    const why = `cannot prepare ${describeDatabase()}: ${(error as Error).message}`
    if (env.DATABASE_URL || error instanceof DatabaseInUseError) throw new Error(why, { cause: error })
    throw new Error(
      `${why}. Its files in ${embeddedDatabaseDir()} could not be opened (damaged, or written by another program). ` +
        'To go back to your last backup, move DATA_DIR aside and run `npm run restore -- <backup.zip>` with an empty DATA_DIR, then start again',
      { cause: error },
    )
  }
  if (env.DATABASE_URL) await claimStoragePlace(db, storage)
  return migrations
}

/** Applies pending migrations, loads the token key and creates the first admin. */
export async function prepareDatabase(): Promise<{ migrations: string[]; demos: string[] }> {
  const migrations = await migrateDatabase()
  await loadSigningKey()
  await bootstrapAdmin()
  const shouldSeed = (env.SEED_DEMO ?? (env.DATABASE_URL ? 'false' : 'true')) === 'true'
  const demos = shouldSeed ? await seedDemoContent() : []
  return { migrations, demos }
}

async function bootstrapAdmin(): Promise<void> {
  if ((await db.user.count()) > 0) return
  const email = env.ADMIN_EMAIL ?? 'admin@localhost'
  const password = env.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url')
  try {
    await createUser({ email, password, role: 'admin' })
  } catch (error) {
    // Another instance starting at the same moment created the admin first.
    if (error instanceof AppError && error.code === 'conflict') return
    throw error
  }
  if (env.ADMIN_PASSWORD) return
  // Never in the log (it may be kept and shipped): in a file only its owner can read.
  const file = adminPasswordFile()
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 })
  logger.warn(`created admin ${email}; its generated password is in ${file}: sign in, change it, and delete the file`)
}
