import { launchBrowser } from '@/lib/render/server/launch-browser'
import { signIn, startServer, stopServer, tempDir } from '@/test/server/start-server'
const server = await startServer({ DATA_DIR: tempDir(), SEED_DEMO: 'true' })
const browser = await launchBrowser()
const auth = { authorization: `Bearer ${await signIn(server.url)}` }
const configurators = (await (await fetch(`${server.url}/api/configurators`, { headers: auth })).json()) as { UUID: string; name: string }[]
const { UUID } = configurators.find((c) => c.name === 'Box with lid')!
const [application] = (await (await fetch(`${server.url}/api/configurators/${UUID}/applications`, { headers: auth })).json()) as { key: string }[]
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
let t0 = 0
page.on('request', (r) => t0 && console.log(`${(performance.now() - t0).toFixed(0)} start ${r.method()} ${r.url().replace(server.url, '').slice(0, 100)}`))
page.on('requestfinished', (r) => t0 && console.log(`${(performance.now() - t0).toFixed(0)} done  ${r.method()} ${r.url().replace(server.url, '').slice(0, 100)} (${JSON.stringify(r.timing()).slice(0,0)})`))
await page.goto(`${server.url}/embed/${application!.key}`)
const ready = (before: string | null) => page.waitForFunction((b) => { const v = document.querySelector('[data-testid="model-viewer"]'); return v?.getAttribute('data-state') === 'ready' && v.getAttribute('data-model-version') !== b }, before, { timeout: 60000 })
await ready(null)
await page.waitForTimeout(3000)
const slider = page.getByRole('slider', { name: 'Height' })
for (let run = 0; run < 4; run++) {
  const before = await page.getByTestId('model-viewer').getAttribute('data-model-version')
  await slider.focus()
  t0 = performance.now()
  console.log('--- press')
  await slider.press(run % 2 === 0 ? 'ArrowRight' : 'PageUp')
  await ready(before)
  console.log(`${(performance.now() - t0).toFixed(0)} drawn`)
  await page.waitForTimeout(1500)
  t0 = 0
}
await browser.close()
await stopServer(server)
process.exit(0)
