import { settledMachine } from '../test/support/machine'

// Playwright starts the server (webServer) before this. A server just started spends its first
// seconds preparing the demos and starting its engines on every core; specs that time a
// customer's page (a mount's 3 s answer) start once that is over, as on a server already running.
export default async function globalSetup(): Promise<void> {
  const waited = await settledMachine()
  console.log(`the server settled ${(waited / 1000).toFixed(1)} s after it answered`)
}
