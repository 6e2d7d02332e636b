import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgres } from '@/lib/db'
import type { PrismaClient } from '@/lib/generated/prisma/client'
import { applyMigrations } from '@/lib/migrations'
import { DiskStorage, S3Storage } from '@/lib/storage/object-storage'
import { claimStoragePlace, MARKER_KEY } from '@/lib/storage/storage-place'
import { createTestDatabase, dropTestDatabase } from '@/test/support/postgres'

// Each instance is its own Prisma client (its own connections) on a fresh PostgreSQL database,
// with real stores: folders on this disk and buckets on a real s3rver.
let root: string
let s3rver: S3rver
let endpoint: string
const databases: string[] = []
const closers: (() => Promise<void>)[] = []

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'paraform-place-'))
  s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: path.join(root, 's3rver'),
    configureBuckets: ['bucket-a', 'bucket-b'].map((name) => ({ name, configs: [] })),
  })
  endpoint = `http://127.0.0.1:${(await s3rver.run()).port}`
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER'
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER'
})

afterAll(async () => {
  await Promise.all(closers.map((close) => close()))
  await Promise.all(databases.map(dropTestDatabase))
  await s3rver?.close()
  await fs.rm(root, { recursive: true, force: true })
})

/** A migrated database; answers a way to connect one more instance to it. */
async function freshDatabase(): Promise<() => PrismaClient> {
  const url = await createTestDatabase()
  databases.push(url)
  const instance = () => {
    const database = openPostgres(url)
    closers.push(() => database.close())
    return database.prisma
  }
  const sql = await openPostgres(url).connect()
  await applyMigrations(sql)
  await sql.close()
  return instance
}

const dataDir = (name: string) => path.join(root, name)
const disk = (name: string) => new DiskStorage(dataDir(name))
const bucket = (name: string) => new S3Storage({ bucket: name, endpoint, region: 'us-east-1', forcePathStyle: true })
const onDisk = (name: string) => `DATA_DIR ${dataDir(name)} on host ${os.hostname()}`
const refusal = (recorded: string, here: string) =>
  `this database's files are kept in ${recorded}, but this instance keeps them in ${here}; ` +
  `start it with the same S3_BUCKET (and S3_ENDPOINT) or DATA_DIR as the other instances (the store is recognised by its ${MARKER_KEY})`

describe('the file store of a PostgreSQL database', () => {
  it('is recorded by the first instance and marked in the store; an instance on the same DATA_DIR starts again', async () => {
    const instance = await freshDatabase()
    await claimStoragePlace(instance(), disk('same'))
    await claimStoragePlace(instance(), disk('same'))

    const marker = JSON.parse(await fs.readFile(path.join(dataDir('same'), MARKER_KEY), 'utf8'))
    expect(marker).toEqual({ id: expect.any(String), description: onDisk('same') })
    expect(await instance().storagePlace.findMany()).toMatchObject([
      { id: 1, placeId: marker.id, description: onDisk('same') },
    ])
  })

  it('lets every instance sharing one DATA_DIR start when they start together', async () => {
    const instance = await freshDatabase()
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => claimStoragePlace(instance(), disk('together'))),
    )
    expect(results.map((result) => result.status)).toEqual(Array(5).fill('fulfilled'))
    const marker = JSON.parse(await fs.readFile(path.join(dataDir('together'), MARKER_KEY), 'utf8'))
    expect((await instance().storagePlace.findUniqueOrThrow({ where: { id: 1 } })).placeId).toBe(marker.id)
  })

  it('refuses an instance on another DATA_DIR with one line naming both, and writes nothing there', async () => {
    const instance = await freshDatabase()
    await claimStoragePlace(instance(), disk('first'))
    await expect(claimStoragePlace(instance(), disk('second'))).rejects.toThrow(
      refusal(onDisk('first'), onDisk('second')),
    )
    await expect(fs.stat(path.join(dataDir('second'), MARKER_KEY))).rejects.toThrow(/ENOENT/)
    await claimStoragePlace(instance(), disk('first'))
  })

  it('of instances on two DATA_DIRs starting together, starts those on one of them and refuses the others', async () => {
    const instance = await freshDatabase()
    const dirs = ['race-a', 'race-b', 'race-a', 'race-b', 'race-a', 'race-b']
    const results = await Promise.allSettled(dirs.map((dir) => claimStoragePlace(instance(), disk(dir))))
    const winner = dirs.find((_, index) => results[index]?.status === 'fulfilled')
    const loser = winner === 'race-a' ? 'race-b' : 'race-a'
    expect(results.map((result) => result.status)).toEqual(
      dirs.map((dir) => (dir === winner ? 'fulfilled' : 'rejected')),
    )
    for (const [index, result] of results.entries()) {
      if (dirs[index] === loser)
        expect(result).toMatchObject({ reason: { message: refusal(onDisk(winner ?? 'none'), onDisk(loser)) } })
    }
  })

  it('refuses a disk after a bucket, a bucket after a disk, and another bucket', async () => {
    const afterBucket = await freshDatabase()
    await claimStoragePlace(afterBucket(), bucket('bucket-a'))
    await expect(claimStoragePlace(afterBucket(), disk('after-bucket'))).rejects.toThrow(
      refusal(`s3://bucket-a at ${endpoint}`, onDisk('after-bucket')),
    )
    await expect(claimStoragePlace(afterBucket(), bucket('bucket-b'))).rejects.toThrow(
      refusal(`s3://bucket-a at ${endpoint}`, `s3://bucket-b at ${endpoint}`),
    )
    await claimStoragePlace(afterBucket(), bucket('bucket-a'))

    const afterDisk = await freshDatabase()
    await claimStoragePlace(afterDisk(), disk('before-bucket'))
    await expect(claimStoragePlace(afterDisk(), bucket('bucket-b'))).rejects.toThrow(
      refusal(onDisk('before-bucket'), `s3://bucket-b at ${endpoint}`),
    )
  })

  it('is taken from the store by a database without the record (reset or restored), and follows the files when they move', async () => {
    const old = await freshDatabase()
    await claimStoragePlace(old(), disk('kept'))
    const { placeId } = await old().storagePlace.findUniqueOrThrow({ where: { id: 1 } })

    const restored = await freshDatabase()
    await claimStoragePlace(restored(), disk('kept'))
    expect(await restored().storagePlace.findUniqueOrThrow({ where: { id: 1 } })).toMatchObject({
      placeId,
      description: onDisk('kept'),
    })

    await fs.cp(dataDir('kept'), dataDir('moved'), { recursive: true })
    await claimStoragePlace(restored(), disk('moved'))
  })
})
