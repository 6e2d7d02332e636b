import os from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { E2E_PORT, SHOP_PORT } from './e2e/ports'
import { ADMIN } from './test/support/start-server'

// End-to-end specs drive real Chromium against server.ts on the production build
// (`npm test` builds first), on a fresh embedded database with the demo configurators.
const port = E2E_PORT
const baseURL = `http://127.0.0.1:${port}`
const dataDir = path.join(os.tmpdir(), `paraform-e2e-${port}`)
// Debian's chromium by default; CHROMIUM_PATH='' uses Playwright's own browser where one is installed.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  outputDir: 'test-results',
  timeout: 90_000,
  expect: { timeout: 20_000 },
  workers: 2,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(executablePath && { executablePath }),
      args: [
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  // Flows run on a laptop's screen; those tagged @phone run again on a phone's (390 × 844, touch),
  // and those tagged @phone-only only there. Each writes its screenshots to its own output folder. The
  // 200k-triangle viewer spec measures frame times on the CPU renderer: it runs alone, after the
  // others, so neither slows the other down on a 2-core machine.
  projects: [
    {
      name: 'desktop',
      testIgnore: /viewer-performance/,
      grepInvert: /@phone-only/,
      use: { viewport: { width: 1440, height: 900 } },
    },
    {
      name: 'phone',
      testIgnore: /viewer-performance/,
      grep: /@phone/,
      use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
    },
    { name: 'performance', testMatch: /viewer-performance/, dependencies: ['desktop', 'phone'] },
  ],
  webServer: {
    command: `rm -rf '${dataDir}' && node --import tsx server.ts`,
    url: `${baseURL}/api/openapi.json`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      SEED_DEMO: 'true',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // The demo shop on its own origin; its back end fails each webhook's first delivery, so the shop spec sees a retry.
      DEMO_SHOP_PORT: String(SHOP_PORT),
      DEMO_SHOP_FAIL_FIRST_WEBHOOK: 'true',
      // A line per request would bury the specs' output; warnings and errors stay.
      LOG_LEVEL: 'warn',
    },
  },
})
