import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { strToU8, unzipSync, zipSync } from 'fflate'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestDatabase, dropTestDatabase } from '@/test/support/postgres'
import { S3RVER_CREDENTIALS, type StartedS3rver, startS3rver } from '@/test/support/s3rver'
import { ADMIN, callServer, signIn, startServer, stopServer, tempDir, type StartedServer } from '@/test/support/start-server'

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

/** An admin command (`npm run backup`, `npm run restore`) as an operator runs it, with the server's settings; the S3 store runs in this process, so no spawnSync. */
async function command(script: string, args: string[], env: Record<string, string>): Promise<{ status: number | null; output: string }> {
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
  const { UUID } = (await (await api(url, token, 'POST', '/configurators', { name: 'Backed up', mainFile: 'main.scad' })).json()) as { UUID: string }
  await api(url, token, 'PUT', `/configurators/${UUID}/files/configurator/main.scad`, 'include <kept/parts.scad>\nwidth = 10; // [1:50]\ncube([width, 4, 2]);\npart();\n')
  const { id } = (await (await api(url, token, 'POST', '/configsessions', { configuratorId: UUID })).json()) as { id: string }
  await api(url, token, 'PUT', `/configsessions/${id}/parameters`, { width: { value: 33 } })
  const snapshot = (await (await api(url, token, 'POST', `/configsessions/${id}/snapshots`, {})).json()) as { id: string }
  return { sessionId: id, snapshotId: snapshot.id }
}

/** Everything an installation holds, as the API shows it, for comparing two: every configurator with its files and applications, the session and snapshot made, the libraries. */
async function inventory(url: string, { sessionId, snapshotId }: { sessionId: string; snapshotId: string }) {
  const token = await signIn(url)
  const json = async (route: string) => (await api(url, token, 'GET', route)).json()
  const configurators = []
  for (const { UUID, name } of ((await json('/configurators')) as { UUID: string; name: string }[]).sort((a, b) => a.UUID.localeCompare(b.UUID))) {
    const files = []
    for (const file of (await json(`/configurators/${UUID}/files`)) as { path: string }[]) {
      files.push([file.path, Buffer.from(await (await api(url, token, 'GET', `/configurators/${UUID}/files/${file.path}`)).arrayBuffer()).toString('base64')])
    }
    const applications = ((await json(`/configurators/${UUID}/applications`)) as { UUID: string; key: string; domain: string }[]).map(({ UUID: id, key, domain }) => ({ id, key, domain }))
    configurators.push({ UUID, name, files, applications })
  }
  return {
    configurators,
    session: await json(`/configsessions/${sessionId}/parameters`),
    // Less its model key, signed afresh with an expiry at every read.
    snapshot: { ...((await json(`/snapshots/${snapshotId}`)) as object), modelKey: undefined },
    libraries: ((await json('/libraries')) as { name: string; contentHash: string }[]).map(({ name, contentHash }) => ({ name, contentHash })),
  }
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

    // A backup with an entry that is no stored file's: refused by name, never written, and the message says what is left.
    const hostile = path.join(tempDir(), 'hostile.zip')
    fs.writeFileSync(hostile, zipSync({ ...unzipSync(fs.readFileSync(file)), 'files/../../escaped.txt': strToU8('x') }))
    const elsewhere = tempDir()
    const refused = await command('restore', [hostile], { DATA_DIR: elsewhere })
    expect(refused.status).toBe(1)
    expect(refused.output).toContain('unexpected entry "files/../../escaped.txt"; DATA_DIR')
    expect(refused.output).toContain('now holds part of the backup: empty it before restoring again')
    expect(fs.existsSync(path.join(elsewhere, '..', 'escaped.txt'))).toBe(false)

    await stop(server)
    const copy = await start(target)
    expect(await inventory(copy.url, made)).toEqual(before)
  })

  it('on PostgreSQL with an S3 store: pg_dump beside the running server, restored into an empty database and bucket', async () => {
    const s3 = await startS3rver(tempDir(), 'source')
    const s3Target: StartedS3rver = await startS3rver(tempDir(), 'target')
    const [sourceDb, targetDb] = [await createTestDatabase(), await createTestDatabase()]
    cleanups.push(() => s3.close(), () => s3Target.close(), () => dropTestDatabase(sourceDb), () => dropTestDatabase(targetDb))
    const s3Env = (endpoint: string, bucket: string) => ({ ...S3RVER_CREDENTIALS, S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_FORCE_PATH_STYLE: 'true', S3_REGION: 'us-east-1' })
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

    const copy = await start(target)
    expect(await inventory(copy.url, made)).toEqual(before)
  })
})
