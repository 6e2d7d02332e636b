import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'

// Runs before each API test file's imports: point the app at this file's own DATA_DIR and
// at PostgreSQL or a fresh PGlite, then migrate as the server does at start-up.
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-test-'))
if (process.env.TEST_DB === 'postgres') process.env.DATABASE_URL = inject('databaseUrl')
else delete process.env.DATABASE_URL

const { prepareDatabase } = await import('@/lib/prepare')
await prepareDatabase()
