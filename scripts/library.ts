// `npm run library -- add <zip|folder> [--name NAME]`, `list`, `remove NAME`: the libraries every
// configurator can include, on the database and storage the settings name (as `npm start`).
// With the embedded database, run it while the server is stopped: PGlite has one process.
import { failStartUp } from '../lib/start-up'

const USAGE = 'usage: npm run library -- add <library.zip|folder> [--name NAME] | list | remove NAME'

async function main() {
  const [command, ...args] = process.argv.slice(2)
  const { env } = await import('../lib/env')
  const { checkDataDir } = await import('../lib/data-dir')
  await checkDataDir(env.DATA_DIR)
  const { migrateDatabase } = await import('../lib/prepare')
  await migrateDatabase()
  const libraries = await import('../lib/libraries/libraries')
  const describe = ({ name, fileCount, sizeBytes, contentHash }: { name: string; fileCount: number; sizeBytes: number; contentHash: string }) =>
    `${name}: ${fileCount} files, ${sizeBytes} bytes, sha256 ${contentHash}`
  if (command === 'add' && args[0] !== undefined) {
    const nameAt = args.indexOf('--name')
    const library = await libraries.installLibraryFrom(args[0], nameAt > 0 ? args[nameAt + 1] : undefined)
    console.log(`paraform: installed ${describe(library)}`)
    const using = await libraries.configuratorsUsing(library.name)
    if (using.length > 0) console.log(`paraform: ${using.length} configurators use it; each builds with it at its next change or first open`)
  } else if (command === 'list') {
    for (const library of await libraries.listLibraries()) console.log(describe(library))
  } else if (command === 'remove' && args[0] !== undefined) {
    await libraries.removeLibrary(args[0])
    console.log(`paraform: removed ${args[0]}`)
  } else {
    failStartUp(USAGE)
  }
  process.exit(0)
}

main().catch((error: unknown) => failStartUp(error instanceof Error ? error.message : String(error)))
