import { spawn } from 'node:child_process'
import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream, openAsBlob } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { z } from 'zod'
import { AppError } from '@/lib/api/errors'
import { BLOB_PREFIX, type DatabaseKind, databaseEntry, MANIFEST, type Manifest, ZManifest } from '@/lib/backup/backup'
import { embeddedDatabaseDir } from '@/lib/db'
import { lockEmbeddedDatabase } from '@/lib/embedded-lock'
import { env } from '@/lib/env'
import { storage } from '@/lib/storage/object-storage'
import { MARKER_KEY } from '@/lib/storage/storage-place'
import { openZipFile, readZipFileEntry, type ZipEntry, type ZipFile } from '@/lib/storage/read-zip'

// `npm run restore -- <file>`: a backup of lib/backup/backup.ts back into an empty place, the
// one the settings name (DATA_DIR, or DATABASE_URL with S3_BUCKET or DATA_DIR). Everything is
// checked before anything is written there: the archive's central directory, every name and
// size against the limits, every entry's content against its declared size and checksum and
// each stored file against the sha256 its name says, the manifest against its schema, and the
// database dump by loading (or listing) it. Entries are unpacked into a staging folder inside
// DATA_DIR (one file system, so moving them into place is a rename), and moved only when all
// passed; a failure leaves the place as it was.

/** What a backup may hold, by declared sizes; see docs/data.md. */
const RESTORE_LIMITS = {
  /** All a zip without ZIP64 can count (backups are written without it). */
  maxEntries: 0xffff,
  /** Uncompressed over compressed size of one entry: blobs and dumps are stored, or compressed already. */
  maxRatio: 100,
  manifestBytes: 64 * 1024,
  /** Larger than any file the server stores (uploads are at most MAX_UPLOAD_BYTES; a snapshot's fonts). */
  storedFileBytes: 1024 ** 3,
}

const STORED_KEY = new RegExp(`^(?:${MARKER_KEY.replace('.', '\\.')}|${BLOB_PREFIX}([0-9a-f]{2})/(\\1[0-9a-f]{62}))$`)

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
    if (entries.length > 0)
      throw new Error(`${embeddedDatabaseDir()} holds a database already; restore into an empty DATA_DIR`)
  } else {
    const client = new pg.Client({ connectionString: env.DATABASE_URL })
    await client.connect()
    try {
      const { rows } = await client.query<{ count: string }>(
        `SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
      )
      if (Number(rows[0]!.count) > 0)
        throw new Error('the database named by DATABASE_URL holds tables already; restore into an empty database')
    } finally {
      await client.end()
    }
  }
  for await (const key of storage.list(BLOB_PREFIX))
    throw new Error(`${storage.location} holds files already (${key}); restore into an empty store`)
}

/** The archive's entries by role, each name and size checked: the manifest, the database dump, the stored files. */
async function checkEntries(zip: ZipFile, kind: DatabaseKind, problem: (text: string) => BadBackup) {
  const other = databaseEntry(kind === 'embedded' ? 'postgresql' : 'embedded')
  const [manifest, database, ...rest] = zip.entries
  if (manifest?.name !== MANIFEST) throw problem(`it does not start with ${MANIFEST}`)
  if (database?.name === other)
    throw problem(
      `it holds ${kind === 'embedded' ? 'a PostgreSQL database' : 'an embedded database'}; restore ` +
        `it where the settings name one (${kind === 'embedded' ? 'DATABASE_URL' : 'no DATABASE_URL'})`,
    )
  if (database?.name !== databaseEntry(kind)) throw problem(`${databaseEntry(kind)} does not follow ${MANIFEST}`)
  if (manifest.size > RESTORE_LIMITS.manifestBytes)
    throw problem(`${MANIFEST} is larger than ${RESTORE_LIMITS.manifestBytes} bytes`)
  const files = rest.map((entry) => {
    const key = entry.name.slice('files/'.length)
    if (!entry.name.startsWith('files/') || !STORED_KEY.test(key))
      throw problem(`unexpected entry ${JSON.stringify(entry.name)}`)
    if (entry.size > RESTORE_LIMITS.storedFileBytes)
      throw problem(`entry ${JSON.stringify(entry.name)} is larger than ${RESTORE_LIMITS.storedFileBytes} bytes`)
    return { entry, key }
  })
  const total = zip.entries.reduce((sum, entry) => sum + entry.size, 0)
  const { bavail, bsize } = await fs.statfs(env.DATA_DIR)
  if (total > bavail * bsize)
    throw problem(`it unpacks to ${total} bytes, more than the ${bavail * bsize} free in DATA_DIR ${env.DATA_DIR}`)
  return { manifest, database, files }
}

async function readManifest(
  zip: ZipFile,
  entry: ZipEntry,
  kind: DatabaseKind,
  problem: (text: string) => BadBackup,
): Promise<Manifest> {
  const chunks: Uint8Array[] = []
  for await (const chunk of readZipFileEntry(zip, entry)) chunks.push(chunk)
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    throw problem(`${MANIFEST} is not JSON`)
  }
  const manifest = ZManifest.safeParse(parsed)
  if (!manifest.success)
    throw problem(
      `${MANIFEST} is not a manifest this server reads (${z.prettifyError(manifest.error).replace(/\s+/g, ' ')})`,
    )
  if (manifest.data.database !== kind)
    throw problem(
      `its manifest says it holds ${manifest.data.database === 'embedded' ? 'an embedded database' : 'a PostgreSQL database'}`,
    )
  return manifest.data
}

/** Unpacks the entry into `target`, checked as it streams; a stored file's content must hash to its name. */
async function unpack(zip: ZipFile, entry: ZipEntry, target: string, expectedHash?: string): Promise<void> {
  const hash = createHash('sha256')
  const content = Readable.from(readZipFileEntry(zip, entry)).on('data', (chunk: Buffer) => hash.update(chunk))
  await pipeline(content, createWriteStream(target, { flags: 'wx' }))
  if (expectedHash !== undefined && hash.digest('hex') !== expectedHash)
    throw new AppError(
      'bad_request',
      `Zip entry ${JSON.stringify(entry.name)}: its content's sha256 is not the one its name says`,
    )
}

/** Loads the dump into the staging folder (embedded), or lists it (pg_restore reads its table of contents): a damaged dump fails here. */
async function checkDatabase(kind: DatabaseKind, dump: string, staging: string): Promise<string> {
  if (kind === 'embedded') {
    const dir = path.join(staging, 'db')
    const pglite = await PGlite.create(dir, { loadDataDir: await openAsBlob(dump) })
    await pglite.close()
    return dir
  }
  await pgRestore(['--list', dump])
  return dump
}

async function pgRestore(args: string[]): Promise<void> {
  const child = spawn('pg_restore', args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let errors = ''
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()))
  const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve))
  if (code !== 0) throw new Error(`pg_restore failed: ${errors.trim().split('\n').at(-1)}`)
}

/** Moves the checked files and the database into place; on a failure, takes back what it moved. */
async function place(kind: DatabaseKind, database: string, files: { key: string; staged: string }[]): Promise<void> {
  const placed: string[] = []
  try {
    for (const { key, staged } of files) {
      await storage.putFile(key, staged)
      placed.push(key)
    }
    if (kind === 'embedded') {
      await fs.rm(embeddedDatabaseDir(), { recursive: true, force: true })
      await fs.rename(database, embeddedDatabaseDir())
    } else {
      // One transaction: a dump that fails halfway leaves the database empty.
      await pgRestore([
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        `--dbname=${env.DATABASE_URL}`,
        database,
      ])
    }
  } catch (error) {
    for (const key of placed) await storage.delete(key)
    throw error
  }
}

/** Restores the backup at `file` into the empty place the settings name; nothing is written there unless all of it passes. */
export async function restoreBackup(file: string): Promise<Restored> {
  const kind: DatabaseKind = env.DATABASE_URL ? 'postgresql' : 'embedded'
  const problem = (text: string) => new BadBackup(file, text)
  const handle = await fs
    .open(file)
    .catch((error: NodeJS.ErrnoException) =>
      Promise.reject(new Error(`cannot read ${file} (${error.code ?? error.message})`)),
    )
  const staging = path.join(env.DATA_DIR, `.restore-${randomUUID()}`)
  try {
    const zip = await openZipFile(handle, { ...RESTORE_LIMITS, maxTotalBytes: Number.MAX_SAFE_INTEGER }, 'The backup')
    const { manifest, database, files } = await checkEntries(zip, kind, problem)
    await readManifest(zip, manifest, kind, problem)
    await checkEmpty(kind)
    await fs.mkdir(staging)
    const dump = path.join(staging, path.basename(database.name))
    await unpack(zip, database, dump)
    const staged = []
    for (const [index, { entry, key }] of files.entries()) {
      const target = path.join(staging, `file-${index}`)
      // A blob's name is its content's sha256; the store's marker has none.
      await unpack(zip, entry, target, STORED_KEY.exec(key)![2])
      staged.push({ key, staged: target })
    }
    const checked = await checkDatabase(kind, dump, staging).catch((error: Error) =>
      Promise.reject(problem(`${database.name} does not load: ${error.message}`)),
    )
    await place(kind, checked, staged)
    return { database: kind, files: staged.length }
  } catch (error) {
    if (error instanceof AppError) throw problem(error.message)
    throw error
  } finally {
    await handle.close()
    await fs.rm(staging, { recursive: true, force: true })
  }
}
