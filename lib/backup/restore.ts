import { spawn } from 'node:child_process'
import { createReadStream } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { Unzip, UnzipInflate } from 'fflate'
import pg from 'pg'
import { BLOB_PREFIX, BACKUP_FORMAT, type DatabaseKind, databaseEntry, MANIFEST, type Manifest } from '@/lib/backup/backup'
import { embeddedDatabaseDir } from '@/lib/db'
import { lockEmbeddedDatabase } from '@/lib/embedded-lock'
import { env } from '@/lib/env'
import { storage } from '@/lib/storage/object-storage'
import { MARKER_KEY } from '@/lib/storage/storage-place'

// `npm run restore -- <file>`: a backup of lib/backup/backup.ts back into an empty place, the
// one the settings name (DATA_DIR, or DATABASE_URL with S3_BUCKET or DATA_DIR). Every entry's
// name is checked before anything of it is written; the archive is read as it streams.

const STORED_KEY = new RegExp(`^(?:${MARKER_KEY.replace('.', '\\.')}|${BLOB_PREFIX}[0-9a-f]{2}/[0-9a-f]{64})$`)

export interface Restored {
  database: DatabaseKind
  files: number
}

class BadBackup extends Error {
  constructor(file: string, problem: string) {
    super(`${file} is no Paraform backup this server can restore: ${problem}`)
  }
}

/** Refuses a place that holds anything: a restore never mixes with what is there. */
async function checkEmpty(kind: DatabaseKind): Promise<void> {
  if (kind === 'embedded') {
    lockEmbeddedDatabase(env.DATA_DIR)
    const entries = await fs.readdir(embeddedDatabaseDir()).catch(() => [])
    if (entries.length > 0) throw new Error(`${embeddedDatabaseDir()} holds a database already; restore into an empty DATA_DIR`)
  } else {
    const client = new pg.Client({ connectionString: env.DATABASE_URL })
    await client.connect()
    try {
      const { rows } = await client.query<{ count: string }>(`SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`)
      if (Number(rows[0]!.count) > 0) throw new Error('the database named by DATABASE_URL holds tables already; restore into an empty database')
    } finally {
      await client.end()
    }
  }
  for await (const key of storage.list(BLOB_PREFIX)) throw new Error(`${storage.location} holds files already (${key}); restore into an empty store`)
}

async function restoreDatabase(kind: DatabaseKind, dump: Uint8Array): Promise<void> {
  if (kind === 'embedded') {
    const pglite = await PGlite.create(embeddedDatabaseDir(), { loadDataDir: new Blob([new Uint8Array(dump)]) })
    await pglite.close()
    return
  }
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'paraform-restore-')), 'database.dump')
  try {
    await fs.writeFile(file, dump)
    const child = spawn('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${env.DATABASE_URL}`, file], { stdio: ['ignore', 'ignore', 'pipe'] })
    let errors = ''
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk))
    const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve))
    if (code !== 0) throw new Error(`pg_restore failed: ${errors.trim().split('\n').at(-1)}`)
  } finally {
    await fs.rm(path.dirname(file), { recursive: true, force: true })
  }
}

/** Restores the backup at `file` into the empty place the settings name. */
export async function restoreBackup(file: string): Promise<Restored> {
  const kind: DatabaseKind = env.DATABASE_URL ? 'postgresql' : 'embedded'
  const done: { name: string; data: Uint8Array }[] = []
  const unzip = new Unzip((entry) => {
    const chunks: Uint8Array[] = []
    entry.ondata = (error, chunk, final) => {
      if (error) throw new BadBackup(file, error.message)
      chunks.push(chunk)
      if (final) done.push({ name: entry.name, data: Buffer.concat(chunks) })
    }
    entry.start()
  })
  unzip.register(UnzipInflate)
  let manifest: Manifest | undefined
  let hasDatabase = false
  let files = 0
  const handle = async ({ name, data }: { name: string; data: Uint8Array }) => {
    if (!manifest) {
      if (name !== MANIFEST) throw new BadBackup(file, `it does not start with ${MANIFEST}`)
      try {
        manifest = JSON.parse(Buffer.from(data).toString('utf8')) as Manifest
      } catch {
        throw new BadBackup(file, `${MANIFEST} is not JSON`)
      }
      if (manifest.format !== BACKUP_FORMAT) throw new BadBackup(file, `format ${String(manifest.format)}, this server reads ${BACKUP_FORMAT}`)
      if (manifest.database !== kind) throw new BadBackup(file, `it holds ${manifest.database === 'embedded' ? 'an embedded database' : 'a PostgreSQL database'}; restore it where the settings name one (${manifest.database === 'embedded' ? 'no DATABASE_URL' : 'DATABASE_URL'})`)
      await checkEmpty(kind)
    } else if (!hasDatabase) {
      if (name !== databaseEntry(kind)) throw new BadBackup(file, `${databaseEntry(kind)} does not follow ${MANIFEST}`)
      await restoreDatabase(kind, data)
      hasDatabase = true
    } else {
      const key = name.slice('files/'.length)
      if (!name.startsWith('files/') || !STORED_KEY.test(key)) throw new BadBackup(file, `unexpected entry ${JSON.stringify(name)}`)
      await storage.put(key, data)
      files++
    }
  }
  try {
    for await (const chunk of createReadStream(file)) {
      unzip.push(chunk as Uint8Array)
      while (done.length > 0) await handle(done.shift()!)
    }
    unzip.push(new Uint8Array(0), true)
    while (done.length > 0) await handle(done.shift()!)
    if (!hasDatabase) throw new BadBackup(file, 'it holds no database')
  } catch (error) {
    // Written as the archive streams: what came before the failure is in place.
    if (!hasDatabase) throw error
    const place = kind === 'embedded' ? `DATA_DIR ${env.DATA_DIR}` : 'the database and the store'
    throw new Error(`${(error as Error).message}; ${place} now holds part of the backup: empty it before restoring again`)
  }
  return { database: kind, files }
}
