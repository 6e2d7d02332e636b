import { Zip, ZipPassThrough } from 'fflate'
import { z } from 'zod'
import { getDatabase } from '@/lib/db'
import { env } from '@/lib/env'
import { MissingObjectError, storage } from '@/lib/storage/object-storage'
import { MARKER_KEY } from '@/lib/storage/storage-place'

// A backup of a whole installation in one zip: the database as its own dump tool writes it
// (PGlite's dump of its data directory, or pg_dump's custom format), then every stored file
// the database can refer to (uploaded, session and library files under `blobs/`) and the
// store's marker. Built meshes are left out: they are a cache, built again when asked for.
// Blobs are named by their content and never removed, so every blob the dump refers to is in
// the store when the files are copied after it: the archive is consistent while the service runs.

export const MANIFEST = 'paraform-backup.json'
export const BACKUP_FORMAT = 1

export const ZManifest = z.strictObject({
  format: z.literal(BACKUP_FORMAT),
  createdAt: z.iso.datetime(),
  database: z.enum(['embedded', 'postgresql']),
})
export type Manifest = z.infer<typeof ZManifest>
export type DatabaseKind = Manifest['database']

export function databaseEntry(kind: DatabaseKind): string {
  return kind === 'embedded' ? 'database/pglite.tar.gz' : 'database/postgresql.dump'
}

/** What a backup holds of the store: the marker (PostgreSQL deployments have one) and the blobs. */
export const BLOB_PREFIX = 'blobs/'

/** The installation as a zip, chunk by chunk as it is written. */
export async function* backupArchive(): AsyncIterable<Uint8Array> {
  const chunks: Uint8Array[] = []
  let failure: Error | null = null
  const zip = new Zip((error, chunk) => (error ? (failure = error) : chunks.push(chunk)))
  const drain = function* () {
    if (failure) throw failure
    yield* chunks.splice(0)
  }
  const add = async function* (name: string, content: AsyncIterable<Uint8Array>) {
    // Stored: blobs and the dumps are compressed already, or small.
    const entry = new ZipPassThrough(name)
    zip.add(entry)
    for await (const chunk of content) {
      entry.push(chunk)
      yield* drain()
    }
    entry.push(new Uint8Array(0), true)
    yield* drain()
  }
  const kind: DatabaseKind = env.DATABASE_URL ? 'postgresql' : 'embedded'
  const manifest: Manifest = { format: BACKUP_FORMAT, createdAt: new Date().toISOString(), database: kind }
  yield* add(MANIFEST, once(new TextEncoder().encode(JSON.stringify(manifest, null, 2))))
  yield* add(databaseEntry(kind), getDatabase().dump())
  const marker = await storage
    .readBuffer(MARKER_KEY)
    .catch((error: unknown) => (error instanceof MissingObjectError ? null : Promise.reject(error)))
  if (marker) yield* add(`files/${MARKER_KEY}`, once(marker))
  for await (const key of storage.list(BLOB_PREFIX)) yield* add(`files/${key}`, once(await storage.readBuffer(key)))
  zip.end()
  yield* drain()
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes
}
