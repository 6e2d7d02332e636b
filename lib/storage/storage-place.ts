import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { PrismaClient } from '@/lib/generated/prisma/client'
import { MissingObjectError, type ObjectStorage } from '@/lib/storage/object-storage'

/** The object that names a file store; it moves along when the files are copied elsewhere. */
export const MARKER_KEY = 'paraform-storage.json'

const ZMarker = z.object({ id: z.string().min(1), description: z.string() })
type Marker = z.infer<typeof ZMarker>

// Any constant works as long as every instance uses the same one (not the migrations' lock).
const STORAGE_PLACE_LOCK_ID = 72_616_018

/**
 * Refuses to run this instance on a PostgreSQL database whose files another instance keeps
 * elsewhere (another DATA_DIR, another bucket): each would miss the other's files. The store
 * is recognised by the id in its marker object, recorded in the database by the first
 * instance; instances sharing one DATA_DIR or bucket find the same marker.
 *
 * A database without the record (new, or restored from before it existed) records the marker
 * it finds, or writes a new one into an unmarked store. Start-ups take turns under an advisory
 * lock, so instances starting together agree: those on the first one's store start, others refuse.
 */
export async function claimStoragePlace(prisma: PrismaClient, storage: ObjectStorage): Promise<void> {
  await prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${STORAGE_PLACE_LOCK_ID})`
      const recorded = await tx.storagePlace.findUnique({ where: { id: 1 } })
      const marker = await readMarker(storage)
      if (recorded) {
        if (marker?.id === recorded.placeId) return
        throw new Error(
          `this database's files are kept in ${recorded.description}, but this instance keeps them in ${storage.location}; ` +
            `start it with the same S3_BUCKET (and S3_ENDPOINT) or DATA_DIR as the other instances (the store is recognised by its ${MARKER_KEY})`,
        )
      }
      const place = marker ?? (await writeMarker(storage))
      await tx.storagePlace.create({ data: { id: 1, placeId: place.id, description: place.description } })
    },
    // Waiting for the lock counts: other instances may be checking slow stores before this one.
    { timeout: 120_000 },
  )
}

async function readMarker(storage: ObjectStorage): Promise<Marker | null> {
  let data: Buffer
  try {
    data = await storage.readBuffer(MARKER_KEY)
  } catch (error) {
    if (error instanceof MissingObjectError) return null
    throw new Error(`cannot read ${MARKER_KEY} in ${storage.location}: ${(error as Error).message}`, { cause: error })
  }
  try {
    return ZMarker.parse(JSON.parse(data.toString()))
  } catch {
    throw new Error(
      `${MARKER_KEY} in ${storage.location} is damaged; restore it from a backup or another copy of the files`,
    )
  }
}

async function writeMarker(storage: ObjectStorage): Promise<Marker> {
  const marker = { id: randomUUID(), description: storage.location }
  try {
    await storage.put(MARKER_KEY, Buffer.from(JSON.stringify(marker)))
  } catch (error) {
    throw new Error(`cannot write ${MARKER_KEY} in ${storage.location}: ${(error as Error).message}`, { cause: error })
  }
  return marker
}
