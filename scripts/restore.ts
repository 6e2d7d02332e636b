// `npm run restore -- <file>`: a backup of `npm run backup` into the empty place the settings
// name (an empty DATA_DIR; or an empty DATABASE_URL database with an empty S3_BUCKET or
// DATA_DIR). Run it before the first `npm start` there.
import '../lib/node-version-guard'
import { failStartUp } from '../lib/start-up'

async function main() {
  const [file] = process.argv.slice(2)
  if (!file) failStartUp('usage: npm run restore -- <file.zip>')
  const { env } = await import('../lib/env')
  const { checkDataDir } = await import('../lib/data-dir')
  await checkDataDir(env.DATA_DIR)
  const { restoreBackup } = await import('../lib/backup/restore')
  const restored = await restoreBackup(file)
  console.log(
    `paraform: restored the ` +
      `${restored.database === 'embedded' ? 'embedded' : 'PostgreSQL'} ` +
      `database and ${restored.files} stored ` +
      `files from ${file}; start the server`,
  )
  process.exit(0)
}

// An error without a message (a failed allocation) still says what it was.
main().catch((error: unknown) => failStartUp(error instanceof Error ? error.message || String(error) : String(error)))
