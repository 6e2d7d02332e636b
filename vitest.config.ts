import { defineConfig } from 'vitest/config'

const apiTests = ['app/**/*.test.ts', 'test/api/**/*.test.ts']

export default defineConfig({
  resolve: { alias: { '@': import.meta.dirname } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['test/global-setup.ts'],
    projects: [
      // The API suite runs twice: on this machine's PostgreSQL and on the embedded PGlite.
      { extends: true, test: { name: 'postgres', include: apiTests, setupFiles: ['test/setup-api.ts'], env: { TEST_DB: 'postgres', SEED_DEMO: 'false', SERVICES: '{"echo":"http://127.0.0.1:45711/base"}', SERVICE_TIMEOUT_SECONDS: '1' } } },
      { extends: true, test: { name: 'pglite', include: apiTests, setupFiles: ['test/setup-api.ts'], env: { TEST_DB: 'pglite', SEED_DEMO: 'false', SERVICES: '{"echo":"http://127.0.0.1:45712/base"}', SERVICE_TIMEOUT_SECONDS: '1' } } },
      // Unit and process-level tests bring their own databases.
      // Starting the real server takes seconds, many more on a loaded two-core machine.
      { extends: true, test: { name: 'unit', include: ['lib/**/*.test.ts', 'components/**/*.test.ts', 'test/server/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 180_000 } },
    ],
  },
})
