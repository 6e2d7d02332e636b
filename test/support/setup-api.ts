import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createTestDatabase } from './postgres'

// Runs before each API test file's imports: point the app at this file's own DATA_DIR and at
// its own PostgreSQL database (as one deployment: its files, database and build queue belong
// together) or a fresh PGlite, then migrate as the server does at start-up.
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-test-'))
if (process.env.TEST_DB === 'postgres') process.env.DATABASE_URL = await createTestDatabase()
else delete process.env.DATABASE_URL

const { prepareDatabase } = await import('@/lib/set-up-database')
await prepareDatabase()
// As the server does: what model changes set off follows them.
await (await import('@/lib/sessions/model-change-effects')).followModelChanges()
