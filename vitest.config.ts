import os from 'node:os'
import { defineConfig } from 'vitest/config'

const apiTests = ['app/**/*.test.ts', 'test/api/**/*.test.ts']
const API_WORKERS = Math.max(2, os.availableParallelism() - 1)
const DEPLOY_TESTS = ['test/server/multi-process.test.ts', 'test/server/prometheus.test.ts']
// Route handlers called directly see no client address ('unknown' for every test file):
// address limits that every test shares must not trip; test/api/rate-limits.test.ts sets its own.
// Smaller session file quotas than the defaults, so quota tests move megabytes, not hundreds.
const apiEnv = {
  SEED_DEMO: 'false',
  // A log line per request and build would bury the test output; warnings and errors stay.
  LOG_LEVEL: 'warn',
  // Background preparation would build while tests count builds; test/api/preparation.test.ts turns it on.
  PREPARE_MODELS: 'false',
  SERVICE_TIMEOUT_SECONDS: '1',
  LOGIN_FAILURES_PER_ADDRESS: '100000',
  ANONYMOUS_TOKENS_PER_MINUTE_PER_ADDRESS: '100000',
  SESSION_FILE_MAX_BYTES: String(4 * 1024 * 1024),
  SESSION_FILES_MAX_BYTES: String(10 * 1024 * 1024),
  // Debian's OpenSCAD (or the one OPENSCAD_BINARY names) as the native engine beside the embedded one (test/api/native-engine.test.ts).
  OPENSCAD_BINARY: process.env.OPENSCAD_BINARY ?? '/usr/bin/openscad',
}

export default defineConfig({
  // Next resolves server-only with the react-server condition in route handlers; tests import those modules directly.
  resolve: {
    alias: { '@': import.meta.dirname, 'server-only': `${import.meta.dirname}/node_modules/server-only/empty.js` },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      // The API suite runs twice: on this machine's PostgreSQL and on the embedded PGlite, two files
      // at a time at least (each has its own database and DATA_DIR, and mostly waits on the engine
      // threads and the database: two at a time took 11 minutes on a 2-core machine).
      {
        extends: true,
        test: {
          name: 'postgres',
          include: apiTests,
          maxWorkers: API_WORKERS,
          setupFiles: ['test/support/setup-api.ts'],
          env: {
            ...apiEnv,
            TEST_DB: 'postgres',
            SERVICES: '{"echo":"http://127.0.0.1:45711/base"}',
            WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:45721',
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'pglite',
          include: apiTests,
          maxWorkers: API_WORKERS,
          setupFiles: ['test/support/setup-api.ts'],
          env: {
            ...apiEnv,
            TEST_DB: 'pglite',
            SERVICES: '{"echo":"http://127.0.0.1:45712/base"}',
            WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:45722',
          },
        },
      },
      // Unit and process-level tests bring their own databases.
      // Starting the real server takes seconds, many more on a loaded two-core machine: one file at
      // a time, after the API suite.
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'components/**/*.test.ts', 'test/server/**/*.test.ts'],
          exclude: DEPLOY_TESTS,
          testTimeout: 180_000,
          hookTimeout: 180_000,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      // Several server processes at once (the deployment, Prometheus scraping one): alone, one file
      // at a time, after every other project, so that the load they make cannot push another
      // file's timed work (a first headless render) past its limit.
      {
        extends: true,
        test: {
          name: 'deploy',
          include: DEPLOY_TESTS,
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
})
