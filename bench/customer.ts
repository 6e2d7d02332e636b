// The customer page, driven in real Chromium: time from releasing a slider to the new model
// drawn in the viewer, next to the server's build for the same change (the PUT that builds
// it, as the page saw it), and the page's JavaScript (gzip) before and after the 3D chunk.
import { gzipSync } from 'node:zlib'
import type { Page } from 'playwright-core'
import { operationPath } from '@/lib/endpoints/client'
import { launchBrowser } from '@/lib/render/server/launch-browser'
import { signIn, startServer, stopServer, tempDir } from '@/test/support/start-server'
import { describe, hasProductionBuild, ms } from './stats'

const RUNS = 12
const FIGURE_RUNS = 6
const DEMO = 'Box with lid'
const SLIDER = 'Height'

async function demoApplicationKey(url: string): Promise<string> {
  const auth = { authorization: `Bearer ${await signIn(url)}` }
  const configurators = (await (
    await fetch(`${url}/api${operationPath('listConfigurators')}`, { headers: auth })
  ).json()) as { UUID: string; name: string }[]
  const { UUID } = configurators.find((configurator) => configurator.name === DEMO)!
  const [application] = (await (
    await fetch(`${url}/api${operationPath('listApplications', { params: { configuratorId: UUID } })}`, {
      headers: auth,
    })
  ).json()) as { key: string }[]
  return application!.key
}

const modelVersion = (page: Page) => page.getByTestId('model-viewer').getAttribute('data-model-version')

async function waitForNewModel(page: Page, previous: string | null): Promise<void> {
  await page.waitForFunction(
    (before) => {
      const viewer = document.querySelector('[data-testid="model-viewer"]')
      return viewer?.getAttribute('data-state') === 'ready' && viewer.getAttribute('data-model-version') !== before
    },
    previous,
    { timeout: 60_000 },
  )
}

/** Initial JS is what the HTML names; everything fetched after it is lazy (the viewer's 3D chunk). */
async function measureJavaScript(page: Page, url: string): Promise<{ initial: number; lazy: number }> {
  const scripts = new Map<string, number>()
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return
    const body = await response.body().catch(() => null)
    if (body) scripts.set(new URL(response.url()).pathname, gzipSync(body).byteLength)
  })
  const html = await (await page.goto(url))!.text()
  await waitForNewModel(page, null)
  const named = new Set(
    [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => new URL(match[1]!, url).pathname),
  )
  let initial = 0
  let lazy = 0
  for (const [path, bytes] of scripts) {
    if (named.has(path)) initial += bytes
    else lazy += bytes
  }
  return { initial, lazy }
}

export async function benchCustomer(): Promise<void> {
  console.log('\n## Customer page: slider release to new model drawn, against the server build of the same change')
  if (!hasProductionBuild('the customer page')) return
  const server = await startServer({ DATA_DIR: tempDir(), SEED_DEMO: 'true' })
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const { initial, lazy } = await measureJavaScript(
      page,
      `${server.url}/embed/${await demoApplicationKey(server.url)}`,
    )
    const slider = page.getByRole('slider', { name: SLIDER })
    const drawn: number[] = []
    const built: number[] = []
    for (let run = 0; run < RUNS; run++) {
      const before = await modelVersion(page)
      // A new value every run, so that every change is a real build, never the cache.
      const putting = page.waitForResponse(
        (response) => response.url().includes('/parameters') && response.request().method() === 'PUT',
      )
      await slider.focus()
      const released = performance.now()
      await slider.press(run % 2 === 0 ? 'ArrowRight' : 'PageUp')
      await waitForNewModel(page, before)
      drawn.push(performance.now() - released)
      built.push((await putting).request().timing().responseEnd)
    }
    const release = describe(drawn)
    const build = describe(built)
    console.log('| figure | p50 | p95 |')
    console.log('|---|---|---|')
    console.log(`| slider release (key up) to new model drawn | ${ms(release.p50)} | ${ms(release.p95)} |`)
    console.log(`| server build: PUT parameters as the page saw it | ${ms(build.p50)} | ${ms(build.p95)} |`)
    console.log(
      `| difference (aim: at most 150 ms) | ${ms(release.p50 - build.p50)} | ${ms(release.p95 - build.p95)} |`,
    )

    // One change at a time, each left until its figures (dimensions, weight, price) are shown.
    const shown: number[] = []
    const asked: number[] = []
    for (let run = 0; run < FIGURE_RUNS; run++) {
      const before = await modelVersion(page)
      const asking = page.waitForResponse((response) => response.url().endsWith('/objectinfo'))
      await slider.focus()
      const released = performance.now()
      await slider.press(run % 2 === 0 ? 'ArrowLeft' : 'PageDown')
      await waitForNewModel(page, before)
      await page.waitForFunction(
        () => document.querySelector('[data-testid="fact-volume"]')?.textContent !== '...',
        null,
        { timeout: 60_000 },
      )
      shown.push(performance.now() - released)
      asked.push((await asking).request().timing().responseEnd)
    }
    const figures = describe(shown)
    const objectInfo = describe(asked)
    console.log(
      `| slider release to the new model's figures shown (one change at a time) | ${ms(figures.p50)} | ${ms(figures.p95)} |`,
    )
    console.log(`| objectinfo as the page saw it | ${ms(objectInfo.p50)} | ${ms(objectInfo.p95)} |`)
    console.log(
      `\nCustomer page JavaScript, gzip: ` +
        `${(initial / 1024).toFixed(1)} ` +
        `KB before the 3D chunk (aim: ` +
        `under 400 KB), ${(lazy / 1024).toFixed(1)} KB ` +
        `loaded after it (three.js, R3F, the viewer).`,
    )
    console.log(
      `${RUNS} changes of "${SLIDER}" on the "${DEMO}" demo (/embed), ` +
        `one at a time, each a new value, the next as soon as the last ` +
        `is drawn; the page's GLB, scene ` +
        `and draw follow each build. Then ` +
        `${FIGURE_RUNS} changes, each left until its figures are shown.`,
    )
  } finally {
    await browser.close()
    await stopServer(server)
  }
}
