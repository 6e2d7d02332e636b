import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { crc32, createDeflateRaw } from 'node:zlib'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { strToU8, unzipSync, zipSync } from 'fflate'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestDatabase, dropTestDatabase } from '@/test/support/postgres'
import { S3RVER_CREDENTIALS, type StartedS3rver, startS3rver } from '@/test/support/s3rver'
import {
  ADMIN,
  callServer,
  signIn,
  startServer,
  stopServer,
  tempDir,
  type StartedServer,
} from '@/test/support/start-server'

// `npm run backup` of a running installation, `npm run restore` into a fresh place, and a server
// started there holds the same configurators and their files, sessions and their values,
// snapshots, applications and libraries. On the embedded default (the backup made by the running
// server) and on PostgreSQL with an S3 store (pg_dump beside the running server).

const started: StartedServer[] = []
const cleanups: (() => Promise<void>)[] = []

afterAll(async () => {
  await Promise.all(started.map(stopServer))
  for (const cleanup of cleanups) await cleanup()
})

async function start(env: Record<string, string>): Promise<StartedServer> {
  const server = await startServer({ SEED_DEMO: 'true', PREPARE_MODELS: 'false', ...env })
  started.push(server)
  return server
}

async function stop(server: StartedServer): Promise<void> {
  await stopServer(server)
  started.splice(started.indexOf(server), 1)
}

/** An admin command (`npm run backup`, `npm run restore`) as an operator runs it, with the server's settings; the S3 store runs in ' + 'this process, so no spawnSync. */
async function command(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
    env: { ...process.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { status, output }
}

async function api(url: string, token: string, method: string, route: string, body?: unknown) {
  const response = await callServer(url, token, method, route, body)
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`)
  return response
}

/** Writes of every kind a backup must keep: a library, an uploaded model, a session's values, a snapshot. */
async function addContent(url: string): Promise<{ sessionId: string; snapshotId: string }> {
  const token = await signIn(url)
  await api(url, token, 'POST', '/libraries?name=kept', zipSync({ 'parts.scad': strToU8('module part() cube(2);\n') }))
  const { UUID } = (await (
    await api(url, token, 'POST', '/configurators', { name: 'Backed up', mainFile: 'main.scad' })
  ).json()) as { UUID: string }
  await api(
    url,
    token,
    'PUT',
    `/configurators/${UUID}/files/configurator/main.scad`,
    'include <kept/parts.scad>\nwidth = 10; // [1:50]\ncube([width, 4, 2]);\npart();\n',
  )
  const { id } = (await (await api(url, token, 'POST', '/configsessions', { configuratorId: UUID })).json()) as {
    id: string
  }
  await api(url, token, 'PUT', `/configsessions/${id}/parameters`, { width: { value: 33 } })
  const snapshot = (await (await api(url, token, 'POST', `/configsessions/${id}/snapshots`, {})).json()) as {
    id: string
  }
  return { sessionId: id, snapshotId: snapshot.id }
}

/** Everything an installation holds, as the API shows it, for comparing two: every configurator with its files and applications, the session and snapshot made, the libraries. */
async function inventory(url: string, { sessionId, snapshotId }: { sessionId: string; snapshotId: string }) {
  const token = await signIn(url)
  const json = async (route: string) => (await api(url, token, 'GET', route)).json()
  const configurators = []
  for (const { UUID, name } of ((await json('/configurators')) as { UUID: string; name: string }[]).sort((a, b) =>
    a.UUID.localeCompare(b.UUID),
  )) {
    const files = []
    for (const file of (await json(`/configurators/${UUID}/files`)) as { path: string }[]) {
      files.push([
        file.path,
        Buffer.from(
          await (await api(url, token, 'GET', `/configurators/${UUID}/files/${file.path}`)).arrayBuffer(),
        ).toString('base64'),
      ])
    }
    const applications = (
      (await json(`/configurators/${UUID}/applications`)) as { UUID: string; key: string; domain: string }[]
    ).map(({ UUID: id, key, domain }) => ({ id, key, domain }))
    configurators.push({ UUID, name, files, applications })
  }
  return {
    configurators,
    session: await json(`/configsessions/${sessionId}/parameters`),
    // Less its model key, signed afresh with an expiry at every read.
    snapshot: { ...((await json(`/snapshots/${snapshotId}`)) as object), modelKey: undefined },
    libraries: ((await json('/libraries')) as { name: string; contentHash: string }[]).map(({ name, contentHash }) => ({
      name,
      contentHash,
    })),
  }
}

/** A zip's entries as its central directory lists them: name, where its local header is, where its data is. */
function entriesOf(zip: Buffer): { name: string; localOffset: number; dataOffset: number }[] {
  const end = zip.length - 22
  const entries = []
  for (let at = zip.readUInt32LE(end + 16), index = 0; index < zip.readUInt16LE(end + 10); index++) {
    const nameLength = zip.readUInt16LE(at + 28)
    const localOffset = zip.readUInt32LE(at + 42)
    const dataOffset = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28)
    entries.push({ name: zip.toString('utf8', at + 46, at + 46 + nameLength), localOffset, dataOffset })
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
  return entries
}

interface RawEntry {
  name: string
  /** As stored: deflated when `method` is 8. */
  data: Uint8Array
  method?: 0 | 8
  crc: number
  size: number
}

/** A zip written byte by byte, so that it may lie: sizes and checksums are what the entries say. */
function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const { name, data, method = 0, crc, size } of entries) {
    const nameBytes = Buffer.from(name)
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at)
      header.writeUInt16LE(0x0800, at + 2)
      header.writeUInt16LE(method, at + 4)
      header.writeUInt32LE(crc >>> 0, at + 10)
      header.writeUInt32LE(data.length, at + 14)
      header.writeUInt32LE(size, at + 18)
      header.writeUInt16LE(nameBytes.length, at + 22)
    }
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    fields(local, 4)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    fields(central, 6)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, Buffer.from(data))
    centrals.push(central, nameBytes)
    offset += 30 + nameBytes.length + data.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

function stored(name: string, content: Uint8Array): RawEntry {
  return { name, data: content, crc: crc32(content), size: content.length }
}

/** 1 GiB of zeros, deflated as it streams (about 1 MB). */
async function deflatedGibibyte(): Promise<RawEntry & { method: 8 }> {
  const chunk = Buffer.alloc(16 * 1024 * 1024)
  let crc = 0
  const zeros = async function* () {
    for (let index = 0; index < 64; index++) {
      crc = crc32(chunk, crc)
      yield chunk
    }
  }
  const parts: Buffer[] = []
  for await (const part of Readable.from(zeros()).pipe(createDeflateRaw({ level: 9 }))) parts.push(part as Buffer)
  return { name: '', data: Buffer.concat(parts), method: 8, crc, size: 1024 ** 3 }
}

/** Every file under `dir`, with its size: what a restore may not change when it fails. */
function listing(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).map((entry) => {
    const file = path.join(entry.parentPath, entry.name)
    return `${path.relative(dir, file)} ${entry.isFile() ? fs.statSync(file).size : 'dir'}`
  })
}

/**
 * Hostile and damaged copies of a real backup: each restore into an empty DATA_DIR fails with one
 * line saying what is wrong and where, and leaves the DATA_DIR exactly as it was (empty).
 */
async function expectHostileArchivesRefused(file: string): Promise<void> {
  const backup = fs.readFileSync(file)
  const entries = entriesOf(backup)
  const unpacked = unzipSync(backup)
  const [manifest, database, ...files] = entries.map(({ name }) => stored(name, unpacked[name]!))
  const blob = files.find(({ name }) => name.startsWith('files/blobs/'))!
  const bomb = await deflatedGibibyte()
  const cases: [string, Buffer, RegExp][] = [
    [
      'cut 40 bytes into the local header of its 10th-from-last entry',
      backup.subarray(0, entries.at(-10)!.localOffset + 40),
      /The backup is not a valid zip archive: no end record in its last \d+ bytes \(cut short, or no zip at all\)$/,
    ],
    [
      'cut inside a file',
      backup.subarray(0, entries.at(-3)!.dataOffset + 2),
      /The backup is not a valid zip archive: no end record/,
    ],
    [
      'a database entry that inflates to 1 GiB',
      rawZip([manifest!, { ...bomb, name: database!.name }, ...files]),
      /Zip entry "database\/pglite\.tar\.gz": compression ratio is above 100$/,
    ],
    [
      'a stored file that inflates to 1 GiB',
      rawZip([manifest!, database!, ...files, { ...bomb, name: `files/blobs/ab/ab${'0'.repeat(62)}` }]),
      /Zip entry "files\/blobs\/ab\/ab0+": compression ratio is above 100$/,
    ],
    [
      'a ".." path after the database',
      rawZip([manifest!, database!, ...files, stored('files/../../escaped.txt', strToU8('x'))]),
      /Zip entry "files\/\.\.\/\.\.\/escaped\.txt": /,
    ],
    [
      'a second database entry',
      rawZip([manifest!, database!, ...files, database!]),
      /Zip entry "database\/pglite\.tar\.gz": appears more than once$/,
    ],
    [
      'a stored file whose content is not its name',
      rawZip([
        manifest!,
        database!,
        ...files,
        { ...stored(blob.name, strToU8('not this')), name: blob.name.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
      ]),
      /sha256 is not the one its name says$/,
    ],
    [
      'a declared size of 0xFFFFFFF0 on a 5-byte entry',
      rawZip([
        manifest!,
        database!,
        ...files,
        { ...stored(`files/blobs/cd/cd${'1'.repeat(62)}`, strToU8('12345')), size: 0xfffffff0 },
      ]),
      /compression ratio is above 100$/,
    ],
    [
      'a manifest of null',
      rawZip([stored('paraform-backup.json', strToU8('null')), database!, ...files]),
      /paraform-backup\.json is not a manifest this server reads/,
    ],
    [
      'a damaged database dump',
      rawZip([manifest!, stored(database!.name, strToU8('no tar.gz at all')), ...files]),
      /database\/pglite\.tar\.gz does not load: /,
    ],
    [
      'a checksum that does not match',
      rawZip([manifest!, database!, ...files.slice(0, -1), { ...files.at(-1)!, crc: files.at(-1)!.crc ^ 1 }]),
      /checksum does not match$/,
    ],
  ]
  const dir = tempDir()
  const results = await Promise.all(
    cases.map(async ([name, archive], index) => {
      const hostile = path.join(dir, `hostile-${index}.zip`)
      fs.writeFileSync(hostile, archive)
      const target = tempDir()
      return { name, target, ...(await command('restore', [hostile], { DATA_DIR: target })) }
    }),
  )
  for (const [index, { name, target, status, output }] of results.entries()) {
    console.log(
      `restore of a backup with ${name} (${(cases[index]![1].length / 1048576).toFixed(1)} MB): exit ${status}, ${output.trim()}`,
    )
    expect({ name, status, lines: output.trim().split('\n').length }).toEqual({ name, status: 1, lines: 1 })
    expect(output.trim(), name).toMatch(cases[index]![2])
    expect(listing(target), name).toEqual([])
  }
  expect(fs.existsSync(path.join(dir, '..', 'escaped.txt'))).toBe(false)
}

describe('backup and restore', () => {
  it('on the embedded database: backed up by the running server, restored into an empty DATA_DIR', async () => {
    const source = { DATA_DIR: tempDir() }
    const server = await start(source)
    const made = await addContent(server.url)
    const file = path.join(tempDir(), 'backup.zip')

    const backup = await command('backup', [file], source)
    expect(backup.status, backup.output).toBe(0)
    expect(backup.output).toContain(`by ${server.url}`)
    const before = await inventory(server.url, made)
    expect(before.configurators.find(({ name }) => name === 'Backed up')?.files).toHaveLength(1)
    expect(before.libraries).toEqual([expect.objectContaining({ name: 'kept' })])

    const target = { DATA_DIR: tempDir() }
    const restored = await command('restore', [file], target)
    expect(restored.status, restored.output).toBe(0)
    expect(restored.output).toMatch(/restored the embedded database and \d+ stored files/)
    // Into a place that holds something: refused, in one line.
    const again = await command('restore', [file], target)
    expect(again.status).toBe(1)
    expect(again.output.trim()).toMatch(/^paraform: \S+ holds a database already; restore into an empty DATA_DIR$/)

    await expectHostileArchivesRefused(file)

    await stop(server)
    const copy = await start(target)
    expect(await inventory(copy.url, made)).toEqual(before)
  })

  it('on PostgreSQL with an S3 store: pg_dump beside the running server, restored into an empty database and bucket', async () => {
    const s3 = await startS3rver(tempDir(), 'source')
    const s3Target: StartedS3rver = await startS3rver(tempDir(), 'target')
    const [sourceDb, targetDb] = [await createTestDatabase(), await createTestDatabase()]
    cleanups.push(
      () => s3.close(),
      () => s3Target.close(),
      () => dropTestDatabase(sourceDb),
      () => dropTestDatabase(targetDb),
    )
    const s3Env = (endpoint: string, bucket: string) => ({
      ...S3RVER_CREDENTIALS,
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_REGION: 'us-east-1',
    })
    const source = { DATA_DIR: tempDir(), DATABASE_URL: sourceDb, ...s3Env(s3.endpoint, 'source') }
    const server = await start(source)
    const made = await addContent(server.url)
    const file = path.join(tempDir(), 'backup.zip')

    const backup = await command('backup', [file], source)
    expect(backup.status, backup.output).toBe(0)
    expect(fs.statSync(file).size).toBeGreaterThan(0)
    const before = await inventory(server.url, made)

    const target = { DATA_DIR: tempDir(), DATABASE_URL: targetDb, ...s3Env(s3Target.endpoint, 'target') }
    const restored = await command('restore', [file], target)
    expect(restored.status, restored.output).toBe(0)
    expect(restored.output).toMatch(/restored the PostgreSQL database and \d+ stored files/)
    // An embedded backup's place refuses a PostgreSQL backup, and the other way round.
    const wrongKind = await command('restore', [file], { DATA_DIR: tempDir() })
    expect(wrongKind.status).toBe(1)
    expect(wrongKind.output).toContain('it holds a PostgreSQL database')

    // A stored file whose content is not its name, after the dump: the database and the bucket stay empty.
    const backupBytes = fs.readFileSync(file)
    const unpacked = unzipSync(backupBytes)
    const entries = entriesOf(backupBytes).map(({ name }) => stored(name, unpacked[name]!))
    const blob = entries.find(({ name }) => name.startsWith('files/blobs/'))!
    const hostile = path.join(tempDir(), 'hostile.zip')
    fs.writeFileSync(
      hostile,
      rawZip([
        ...entries,
        { ...stored(blob.name, strToU8('not this')), name: blob.name.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
      ]),
    )
    const [emptyDb, emptyS3] = [await createTestDatabase(), await startS3rver(tempDir(), 'empty')]
    cleanups.push(
      () => emptyS3.close(),
      () => dropTestDatabase(emptyDb),
    )
    const refused = await command('restore', [hostile], {
      DATA_DIR: tempDir(),
      DATABASE_URL: emptyDb,
      ...s3Env(emptyS3.endpoint, 'empty'),
    })
    expect(refused.status).toBe(1)
    expect(refused.output.trim()).toMatch(
      /^paraform: \S+ is no Paraform backup this server can restore: Zip entry "files\/blobs\/[^"]+": its content's sha256 is not the one its name says$/,
    )
    const client = new pg.Client({ connectionString: emptyDb })
    await client.connect()
    expect(
      (
        await client.query(
          `SELECT tablename FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
        )
      ).rows,
    ).toEqual([])
    await client.end()
    const bucket = new S3Client({
      endpoint: emptyS3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    })
    expect((await bucket.send(new ListObjectsV2Command({ Bucket: 'empty' }))).KeyCount).toBe(0)

    const copy = await start(target)
    expect(await inventory(copy.url, made)).toEqual(before)
  })
})
