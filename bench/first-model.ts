// A newcomer's first look, in real Chromium on a server started as `npm start` starts it: from
// navigating to each demo's customer page to its first model drawn, split where the time goes
// (the document, the scripts, the customer's token and session, the model's GLB, the first frame),
// and the demo shop's first price. Each visit is a new browser context (nothing cached), on demos
// whose preparation built their defaults, as it has on a server a visitor finds running.
import type { Browser } from 'playwright-core'
import { operationPath } from '@/lib/endpoints/client'
import { launchBrowser } from '@/lib/render/server/launch-browser'
import { freePort, signIn, startServer, stopServer, tempDir } from '@/test/support/start-server'
import { describe, hasProductionBuild, ms } from './stats'

const VISITS = 5
const MODEL = /\/api\/configsessions\/[^/]+\/model$/
const DEMOS = ['Box with lid', 'Name tag', 'Spur gear', 'Logo coaster']
/** Issue 45's aims on this machine: the model answered, and the shop's price shown, this soon after navigating. */
const MODEL_AIM_MS = 1500
const PRICE_AIM_MS = 2000

type Phases = Record<'document' | 'scripts' | 'session' | 'asked' | 'model' | 'drawn', number>

/** Waits until every demo's preparation is done: its defaults built, as a visitor finds them. */
async function demoKeys(url: string): Promise<Map<string, string>> {
  const auth = { authorization: `Bearer ${await signIn(url)}` }
  const get = async (path: string) => (await fetch(`${url}/api${path}`, { headers: auth })).json()
  const configurators = (await get(operationPath('listConfigurators'))) as { UUID: string; name: string }[]
  const keys = new Map<string, string>()
  for (const name of DEMOS) {
    const { UUID: configuratorId } = configurators.find((configurator) => configurator.name === name)!
    for (let waited = 0; ; waited += 250) {
      const preparation = (await get(operationPath('getPreparation', { params: { configuratorId } }))) as {
        state: string
        testDrive: { done: boolean }
        refusals: { done: boolean }
      }
      if (preparation.state !== 'preparing' && preparation.testDrive.done && preparation.refusals.done) break
      if (waited > 180_000) throw new Error(`${name}: not prepared after 3 minutes`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const applications = (await get(operationPath('listApplications', { params: { configuratorId } }))) as {
      key: string
      domain: string
    }[]
    keys.set(name, applications.find((application) => application.domain === 'localhost')!.key)
  }
  return keys
}

/** One visit in a fresh context: when each phase ended, in ms after navigation started. */
async function visit(browser: Browser, url: string): Promise<Phases> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  try {
    const page = await context.newPage()
    await page.goto(url)
    await page.waitForFunction(
      () => document.querySelector('[data-testid="model-viewer"]')?.getAttribute('data-state') === 'ready',
      null,
      { timeout: 60_000, polling: 'raf' },
    )
    // Only plain data from the page (tsx names functions with a helper the page does not have).
    const { drawn, responded, resources } = await page.evaluate(() => ({
      drawn: performance.now(),
      responded: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseEnd,
      resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
        path: new URL(entry.name).pathname,
        start: entry.startTime,
        end: entry.responseEnd,
      })),
    }))
    const ended = (pattern: RegExp) =>
      Math.max(0, ...resources.filter((entry) => pattern.test(entry.path)).map((entry) => entry.end))
    return {
      document: responded,
      scripts: ended(/\.js$/),
      session: ended(/\/api\/configsessions$/),
      asked: Math.max(0, ...resources.filter((entry) => MODEL.test(entry.path)).map((entry) => entry.start)),
      model: ended(MODEL),
      drawn,
    }
  } finally {
    await context.close()
  }
}

/** The demo shop's price shown, in ms after navigating to it. */
async function shopPrice(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  try {
    const page = await context.newPage()
    await page.goto(url)
    await page.waitForFunction(() => /\d/.test(document.getElementById('price')?.textContent ?? ''), null, {
      timeout: 60_000,
      polling: 'raf',
    })
    return await page.evaluate(() => performance.now())
  } finally {
    await context.close()
  }
}

export async function benchFirstModel(): Promise<void> {
  console.log("\n## First model: a visitor's first look at each demo's customer page, and the demo shop's price")
  if (!hasProductionBuild('the customer page')) return
  const shopPort = await freePort()
  const server = await startServer({ DATA_DIR: tempDir(), SEED_DEMO: 'true', DEMO_SHOP_PORT: String(shopPort) })
  const browser = await launchBrowser()
  try {
    const keys = await demoKeys(server.url)
    console.log('| demo | document | scripts | session | model asked | model answered (aim 1.5 s) | drawn |')
    console.log('|---|---|---|---|---|---|---|')
    const worst: number[] = []
    for (const [name, key] of keys) {
      const visits: Phases[] = []
      for (let run = 0; run < VISITS; run++) visits.push(await visit(browser, `${server.url}/embed/${key}`))
      const median = (phase: keyof Phases) => ms(describe(visits.map((phases) => phases[phase])).p50)
      const answered = visits.map((phases) => phases.model)
      const slowest = Math.max(...answered)
      worst.push(slowest)
      console.log(
        `| ${name} | ${(['document', 'scripts', 'session', 'asked'] as const).map(median).join(' | ')} | ` +
          `${median('model')} (slowest ${ms(slowest)}, visit ${answered.indexOf(slowest) + 1}) | ${median('drawn')} |`,
      )
    }
    const prices: number[] = []
    for (let run = 0; run < VISITS; run++) prices.push(await shopPrice(browser, `http://localhost:${shopPort}/`))
    const price = describe(prices)
    console.log(
      `| demo shop: first price (aim 2 s) | | | | | ${ms(price.p50)} (slowest ${ms(Math.max(...prices))}) | |`,
    )
    const within = worst.every((slowest) => slowest <= MODEL_AIM_MS) && Math.max(...prices) <= PRICE_AIM_MS
    console.log(
      `\nMedians of ${VISITS} visits each, ms after navigation started, each in a new browser context ` +
        `(nothing cached; the first visit of the first demo is the server's first page since it started): the document's response, the last script, the session created, the model's GLB ` +
        `asked for and answered, and the first frame drawn. ${within ? 'Every visit within' : 'Not every visit within'} the aims ` +
        `(model ${MODEL_AIM_MS} ms, price ${PRICE_AIM_MS} ms).`,
    )
  } finally {
    await browser.close()
    await stopServer(server)
  }
}
