// `npm run library -- add <zip|folder> [--name NAME]`, `list`, `remove NAME`: the libraries every
// configurator can include. With the embedded database and the server running, through that
// server's API (PGlite allows one process), signed in as ADMIN_EMAIL / ADMIN_PASSWORD or with an
// admin's PARAFORM_TOKEN; `--server URL` names a server to use anywhere. Otherwise on the
// database and storage the settings name, as `npm start` does.
import '../lib/node-version-guard'
import { failStartUp } from '../lib/start-up'
import { adminToken, okOrThrow, serverUrl } from './admin-client'

const USAGE = 'usage: npm run library -- add <library.zip|folder> [--name NAME] | list | remove NAME  [--server URL]'

interface LibrarySummary {
  name: string
  fileCount: number
  sizeBytes: number
  contentHash: string
}

/** What the command does, on the database or through a server. */
interface Libraries {
  add(source: string, name?: string): Promise<LibrarySummary>
  list(): Promise<LibrarySummary[]>
  remove(name: string): Promise<void>
  /** How many configurators include the library, when known here. */
  usedBy(name: string): Promise<number | undefined>
}

async function onDatabase(): Promise<Libraries> {
  const { checkDataDir } = await import('../lib/data-dir')
  const { env } = await import('../lib/env')
  await checkDataDir(env.DATA_DIR)
  const { migrateDatabase } = await import('../lib/set-up-database')
  await migrateDatabase()
  const libraries = await import('../lib/libraries/libraries')
  return {
    add: libraries.installLibraryFrom,
    list: libraries.listLibraries,
    remove: libraries.removeLibrary,
    usedBy: async (name) => (await libraries.configuratorsUsing(name)).length,
  }
}

async function throughServer(url: string): Promise<Libraries> {
  const { libraryArchiveFrom } = await import('../lib/libraries/libraries')
  const operations = await import('../lib/libraries/operations')
  const token = await adminToken(url)
  const call = async (method: string, path: string, body?: Uint8Array<ArrayBuffer>) => {
    const response = await fetch(`${url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/zip' }) },
      body,
    })
    const text = await (await okOrThrow(url, response)).text()
    return text ? (JSON.parse(text) as unknown) : undefined
  }
  return {
    async add(source, name) {
      const archive = await libraryArchiveFrom(source, name)
      return operations.installLibrary.response.parse(
        await call('POST', `/libraries${archive.name ? `?name=${encodeURIComponent(archive.name)}` : ''}`, archive.zip),
      )
    },
    list: async () => operations.listLibraries.response.parse(await call('GET', '/libraries')),
    remove: async (name) => void (await call('DELETE', `/libraries/${encodeURIComponent(name)}`)),
    // The server prepares them itself.
    usedBy: async () => undefined,
  }
}

async function main() {
  const [command, ...args] = process.argv.slice(2)
  const server = await serverUrl(args, () => failStartUp(USAGE))
  const libraries = server ? await throughServer(server) : await onDatabase()
  const describe = ({ name, fileCount, sizeBytes, contentHash }: LibrarySummary) =>
    `${name}: ${fileCount} files, ${sizeBytes} bytes, sha256 ${contentHash}`
  const where = server ? ` through ${server}` : ''
  if (command === 'add' && args[0] !== undefined) {
    const nameAt = args.indexOf('--name')
    const library = await libraries.add(args[0], nameAt > 0 ? args[nameAt + 1] : undefined)
    console.log(`paraform: installed ${describe(library)}${where}`)
    const using = await libraries.usedBy(library.name)
    if (using)
      console.log(`paraform: ${using} configurators use it; each builds with it at its next change or first open`)
  } else if (command === 'list') {
    for (const library of await libraries.list()) console.log(describe(library))
  } else if (command === 'remove' && args[0] !== undefined) {
    await libraries.remove(args[0])
    console.log(`paraform: removed ${args[0]}${where}`)
  } else {
    failStartUp(USAGE)
  }
  process.exit(0)
}

main().catch((error: unknown) => failStartUp(error instanceof Error ? error.message : String(error)))
