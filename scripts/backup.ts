// `npm run backup -- <file> [--server URL]`: the whole installation in one zip (lib/backup).
// With the embedded database and the server running, the server writes it (GET /api/backup,
// signed in as in `npm run library`); otherwise this process does, on the database and storage
// the settings name: pg_dump takes one snapshot while the service runs. The file appears whole
// or not at all.
import '../lib/node-version-guard'
import fs from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { failStartUp } from '../lib/start-up'
import { adminToken, okOrThrow, serverUrl } from './admin-client'

const USAGE = 'usage: npm run backup -- <file.zip> [--server URL]'

async function archiveOf(server: string | undefined): Promise<Readable> {
  if (server) {
    const response = await okOrThrow(
      server,
      await fetch(`${server}/api/backup`, { headers: { authorization: `Bearer ${await adminToken(server)}` } }),
    )
    return Readable.fromWeb(response.body! as import('node:stream/web').ReadableStream<Uint8Array>)
  }
  const { env } = await import('../lib/env')
  const { checkDataDir } = await import('../lib/data-dir')
  await checkDataDir(env.DATA_DIR)
  const { migrateDatabase } = await import('../lib/set-up-database')
  await migrateDatabase()
  const { backupArchive } = await import('../lib/backup/backup')
  return Readable.from(backupArchive())
}

async function main() {
  const [file, ...args] = process.argv.slice(2)
  if (!file || file.startsWith('--')) failStartUp(USAGE)
  const server = await serverUrl(args, () => failStartUp(USAGE))
  const partial = `${file}.partial`
  try {
    await pipeline(await archiveOf(server), fs.createWriteStream(partial))
    fs.renameSync(partial, file)
  } finally {
    fs.rmSync(partial, { force: true })
  }
  console.log(
    `paraform: backed up to ${file} (${(fs.statSync(file).size / 1048576).toFixed(1)} MB)${server ? ` by ${server}` : ''}`,
  )
  process.exit(0)
}

main().catch((error: unknown) => failStartUp(error instanceof Error ? error.message : String(error)))
