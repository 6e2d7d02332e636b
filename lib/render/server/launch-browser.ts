import 'server-only'
import { chromium, type Browser } from 'playwright-core'
import { env } from '@/lib/env'

// WebGL2 on SwiftShader (ANGLE), no GPU needed. The sandbox is off because the server often
// runs as root in a container, where Chromium's sandbox cannot start; the page only ever
// loads this server's own headless page, and other addresses go through fetchPublicUrl.
const FLAGS = [
  '--no-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
]

/** Debian's Chromium (CHROMIUM_PATH) driven by playwright-core: nothing is downloaded. */
export function launchBrowser(): Promise<Browser> {
  // Playwright's own signal handlers would keep the server alive on SIGTERM; Chromium ends with its pipe.
  return chromium.launch({
    executablePath: env.CHROMIUM_PATH,
    args: FLAGS,
    headless: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  })
}
