import type { Browser, Page, Route } from 'playwright-core'
import { AppError } from '@/lib/api/errors'
import { env } from '@/lib/env'
import { fetchPublicUrl } from '@/lib/render/fetch-public-url'
import type { HeadlessRenderArgs, Timings } from '@/lib/render/headless-contract'
import { launchBrowser } from '@/lib/render/launch-browser'

export interface RenderedImage {
  bytes: Buffer
  warnings: string[]
  /** wait (for a page), model, scene and draw (in the page), in milliseconds. */
  timings: Timings
}

interface PageSlot {
  page: Page
  /** External textures refused or failed during the current render. */
  externalWarnings: string[]
}

// One browser, at most RENDER_PAGES pages rendering at once (each kept warm once opened),
// at most RENDER_QUEUE requests waiting for a page; past that 429.
interface Pool {
  browser: Promise<Browser> | null
  idle: PageSlot[]
  active: number
  waiting: (() => void)[]
  averageMs: number
}

const globalForPool = globalThis as typeof globalThis & { paraformRenderPool?: Pool }
const pool: Pool = (globalForPool.paraformRenderPool ??= { browser: null, idle: [], active: 0, waiting: [], averageMs: 200 })

/**
 * Renders in a warm page of the headless browser, which runs lib/render through the page
 * app/render/headless. A page or browser that crashes is replaced and the render tried once more.
 */
export async function renderImage(args: HeadlessRenderArgs): Promise<RenderedImage> {
  const queued = performance.now()
  await acquirePage()
  const started = performance.now()
  try {
    const image = await renderOnPage(args).catch((error: unknown) => {
      if (error instanceof AppError) throw error
      console.warn(`paraform: render page failed (${(error as Error).message.split('\n')[0]}); retrying on a fresh page`)
      return renderOnPage(args)
    })
    pool.averageMs = pool.averageMs * 0.8 + (performance.now() - started) * 0.2
    return { ...image, timings: { wait: started - queued, ...image.timings } }
  } finally {
    releasePage()
  }
}

async function acquirePage(): Promise<void> {
  if (pool.active < env.RENDER_PAGES) {
    pool.active++
    return
  }
  if (pool.waiting.length >= env.RENDER_QUEUE) {
    const seconds = Math.max(1, Math.ceil(((pool.waiting.length + 1) * pool.averageMs) / env.RENDER_PAGES / 1000))
    throw new AppError('too_many_requests', `The image renderer is busy (${pool.waiting.length} requests waiting); try again in ${seconds} s`, {
      'retry-after': String(seconds),
    })
  }
  // releasePage() hands its place over directly, so `active` stays as it is.
  await new Promise<void>((resolve) => pool.waiting.push(resolve))
}

function releasePage(): void {
  const next = pool.waiting.shift()
  if (next) next()
  else pool.active--
}

async function renderOnPage(args: HeadlessRenderArgs): Promise<RenderedImage> {
  let slot: PageSlot | undefined
  let isHealthy = false
  const render = async (): Promise<RenderedImage> => {
    slot = pool.idle.pop() ?? (await openSlot())
    slot.externalWarnings = []
    const result = await slot.page.evaluate((renderArgs) => {
      if (!window.renderScene) throw new Error('the headless page is not ready')
      return window.renderScene(renderArgs)
    }, args)
    isHealthy = true
    if (!result.ok) {
      if (result.status === 409) throw new AppError('conflict', result.message)
      throw new Error(`the headless page could not load the model: HTTP ${result.status} ${result.message}`)
    }
    return { bytes: decodeDataUrl(result.dataUrl, args.type), warnings: [...slot.externalWarnings, ...result.warnings], timings: result.timings }
  }
  try {
    return await withTimeout(render(), env.RENDER_TIME_LIMIT_SECONDS * 1000)
  } catch (error) {
    // SwiftShader runs every page's GL in the browser's one GPU process: a shader that loops
    // for ever wedges them all, and closing its page does not stop it. Only a new browser does.
    if (error instanceof AppError && error.code === 'gateway_timeout') discardBrowser()
    throw error
  } finally {
    if (slot && isHealthy && !slot.page.isClosed()) pool.idle.push(slot)
    else if (slot) void slot.page.close().catch(() => {})
  }
}

async function openSlot(): Promise<PageSlot> {
  const base = baseUrl()
  const page = await (await getBrowser()).newPage()
  const slot: PageSlot = { page, externalWarnings: [] }
  try {
    // Anything not on this server is an external texture: it is fetched here, from public addresses only.
    const { origin } = new URL(base)
    await page.route((url) => /^https?:$/.test(url.protocol) && url.origin !== origin, (route) => serveExternal(route, slot))
    await page.goto(`${base}/render/headless`)
    await page.waitForFunction(() => typeof window.renderScene === 'function', undefined, { timeout: 30_000 })
    return slot
  } catch (error) {
    await page.close().catch(() => {})
    throw error
  }
}

async function serveExternal(route: Route, slot: PageSlot): Promise<void> {
  const url = route.request().url()
  try {
    const { body, contentType } = await fetchPublicUrl(url)
    await route.fulfill({ status: 200, body, contentType, headers: { 'access-control-allow-origin': '*' } })
  } catch (error) {
    slot.externalWarnings.push(`external texture ${url} refused: ${(error as Error).message}`)
    await route.abort('blockedbyclient').catch(() => {})
  }
}

async function getBrowser(): Promise<Browser> {
  const current = pool.browser
  if (current) {
    const browser = await current.catch(() => null)
    if (browser?.isConnected()) return browser
    if (pool.browser !== current) return getBrowser() // another request is replacing it already
  }
  const launching = launchBrowser().then(
    (browser) => {
      browser.on('disconnected', () => {
        if (pool.browser !== launching) return
        pool.browser = null
        pool.idle = []
      })
      return browser
    },
    (error: unknown) => {
      if (pool.browser === launching) pool.browser = null
      throw new Error(`cannot start Chromium at ${env.CHROMIUM_PATH} (CHROMIUM_PATH): ${(error as Error).message.split('\n')[0]}`)
    },
  )
  pool.browser = launching
  pool.idle = []
  return launching
}

function discardBrowser(): void {
  const current = pool.browser
  pool.browser = null
  pool.idle = []
  void current?.then((browser) => browser.close()).catch(() => {})
}

function baseUrl(): string {
  return (env.RENDER_BASE_URL ?? `http://127.0.0.1:${env.PORT}`).replace(/\/+$/, '')
}

function decodeDataUrl(dataUrl: string, type: string): Buffer {
  // Chromium falls back to PNG for a type it cannot encode; that must not pass as the asked type.
  const prefix = `data:image/${type};base64,`
  if (!dataUrl.startsWith(prefix)) throw new Error(`the headless page encoded ${dataUrl.slice(0, 30)} instead of image/${type}`)
  return Buffer.from(dataUrl.slice(prefix.length), 'base64')
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AppError('gateway_timeout', `Rendering took longer than ${ms / 1000} s`)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}
