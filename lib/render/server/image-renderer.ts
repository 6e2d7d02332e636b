import 'server-only'
import type { Browser, Page, Route } from 'playwright-core'
import { AppError } from '@/lib/api/errors'
import { env } from '@/lib/env'
import { fetchPublicUrl, RENDERER_USER_AGENT } from '@/lib/outbound/fetch-public-url'
import type { HeadlessRenderArgs, Timings } from '@/lib/render/headless-contract'
import { launchBrowser } from '@/lib/render/server/launch-browser'
import { logger } from '@/lib/log'
import { processSingleton } from '@/lib/process-singleton'

export interface RenderedImage {
  bytes: Buffer
  warnings: string[]
  /** wait (for a page), model, scene and draw (in the page), in milliseconds. */
  timings: Timings
  /** How many renders this process has started, this one included. */
  count: number
}

interface PageSlot {
  page: Page
  /** Requests refused (external textures, this server's other URLs) or failed during the current render. */
  requestWarnings: string[]
  /** The renderer files the current render may load from this server besides the page and its assets. */
  filesPath: string | null
}

// One browser, at most RENDER_PAGES pages rendering at once (each kept warm once opened),
// at most RENDER_QUEUE requests waiting for a page; past that 429.
interface Pool {
  browser: Promise<Browser> | null
  idle: PageSlot[]
  active: number
  waiting: (() => void)[]
  averageMs: number
  renders: number
}

const pool = processSingleton<Pool>('renderPool', () => ({
  browser: null,
  idle: [],
  active: 0,
  waiting: [],
  averageMs: 200,
  renders: 0,
}))

/** How long a page whose render was cancelled has to answer before it counts as stuck in GL work. */
const PROBE_MS = 1000

/**
 * Renders in a warm page of the headless browser, which runs lib/render through the page
 * app/render/headless. A page or browser that crashes is replaced and the render tried once more.
 * When `signal` aborts (the client went away) the request leaves the queue or its render is stopped.
 */
export async function renderImage(args: HeadlessRenderArgs, signal: AbortSignal): Promise<RenderedImage> {
  const queued = performance.now()
  await acquirePage(signal)
  const started = performance.now()
  const count = ++pool.renders
  try {
    const image = await renderOnPage(args, signal).catch((error: unknown) => {
      if (error instanceof AppError) throw error
      logger.warn({ err: error }, 'render page failed; retrying on a fresh page')
      return renderOnPage(args, signal)
    })
    pool.averageMs = pool.averageMs * 0.8 + (performance.now() - started) * 0.2
    return { ...image, count, timings: { wait: started - queued, ...image.timings } }
  } finally {
    releasePage()
  }
}

/** Whether a request comes from a render (its page or its external fetches): a render never starts another. */
export function isRendererRequest(headers: Headers): boolean {
  return headers.get('user-agent')?.startsWith(RENDERER_USER_AGENT) ?? false
}

function cancelled(when: string): AppError {
  logger.warn(`image request cancelled by its client ${when}`)
  return new AppError('bad_request', 'The request was cancelled by its client')
}

async function acquirePage(signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw cancelled('before rendering')
  if (pool.active < env.RENDER_PAGES) {
    pool.active++
    return
  }
  if (pool.waiting.length >= env.RENDER_QUEUE) {
    const seconds = Math.max(1, Math.ceil(((pool.waiting.length + 1) * pool.averageMs) / env.RENDER_PAGES / 1000))
    throw new AppError(
      'too_many_requests',
      `The image renderer is busy (${pool.waiting.length} requests waiting); try again in ${seconds} s`,
      {
        'retry-after': String(seconds),
      },
    )
  }
  // releasePage() hands its place over directly, so `active` stays as it is.
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      pool.waiting.splice(pool.waiting.indexOf(take), 1)
      reject(cancelled('while waiting for a page'))
    }
    const take = () => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }
    pool.waiting.push(take)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

function releasePage(): void {
  const next = pool.waiting.shift()
  if (next) next()
  else pool.active--
}

async function renderOnPage(args: HeadlessRenderArgs, signal: AbortSignal): Promise<Omit<RenderedImage, 'count'>> {
  let slot: PageSlot | undefined
  let isHealthy = false
  let isOver = false
  const render = async (): Promise<Omit<RenderedImage, 'count'>> => {
    const opened = pool.idle.pop() ?? (await openSlot())
    // Ended (time limit, client gone) while the page was being opened: the finally below has run already.
    if (isOver) {
      void opened.page.close().catch(() => {})
      throw new Error('render ended')
    }
    slot = opened
    slot.requestWarnings = []
    slot.filesPath = new URL(args.files.prefix, baseUrl()).pathname
    const result = await slot.page.evaluate((renderArgs) => {
      if (!window.renderScene) throw new Error('the headless page is not ready')
      return window.renderScene(renderArgs)
    }, args)
    isHealthy = true
    return {
      bytes: decodeDataUrl(result.dataUrl, args.type),
      warnings: [...slot.requestWarnings, ...result.warnings],
      timings: result.timings,
    }
  }
  try {
    return await withLimits(render(), env.RENDER_TIME_LIMIT_SECONDS * 1000, signal)
  } catch (error) {
    // SwiftShader runs every page's GL in the browser's one GPU process: a shader that loops
    // for ever wedges them all, and closing its page does not stop it. Only a new browser does.
    if (error instanceof AppError && error.code === 'gateway_timeout') discardBrowser()
    else if (signal.aborted && slot && !(await answers(slot.page))) {
      logger.warn('the cancelled render does not answer; restarting Chromium')
      discardBrowser()
    }
    throw error
  } finally {
    isOver = true
    if (slot && isHealthy && !slot.page.isClosed()) {
      slot.filesPath = null
      pool.idle.push(slot)
    } else if (slot) void slot.page.close().catch(() => {})
  }
}

/** A page not stuck in GL work answers at once; one that does not may have wedged the GPU process. */
async function answers(page: Page): Promise<boolean> {
  return withLimits(
    page.evaluate(() => true),
    PROBE_MS,
  ).catch(() => false)
}

async function openSlot(): Promise<PageSlot> {
  const base = baseUrl()
  const page = await (await getBrowser()).newPage({ userAgent: `${RENDERER_USER_AGENT} (headless Chromium)` })
  const slot: PageSlot = { page, requestWarnings: [], filesPath: null }
  try {
    // Anything not on this server is an external texture: it is fetched here, from public
    // addresses only. On this server the page reaches only what its render needs.
    const { origin } = new URL(base)
    await page.route(
      (url) => /^https?:$/.test(url.protocol),
      (route) =>
        new URL(route.request().url()).origin === origin ? serveOwn(route, slot) : serveExternal(route, slot),
    )
    await page.goto(`${base}/render/headless`)
    await page.waitForFunction(() => typeof window.renderScene === 'function', undefined, { timeout: 30_000 })
    return slot
  } catch (error) {
    await page.close().catch(() => {})
    throw error
  }
}

async function serveOwn(route: Route, slot: PageSlot): Promise<void> {
  const url = new URL(route.request().url())
  const { filesPath } = slot
  const isNeeded =
    url.pathname === '/render/headless' ||
    url.pathname.startsWith('/_next/static/') ||
    (filesPath !== null && url.pathname.startsWith(filesPath))
  if (isNeeded) return route.continue().catch(() => {})
  // The query is left out: it may hold a key.
  const warning = `request to this server ${url.origin}${url.pathname} refused: a render loads only its renderer files`
  logger.warn(warning)
  slot.requestWarnings.push(warning)
  await route.abort('blockedbyclient').catch(() => {})
}

async function serveExternal(route: Route, slot: PageSlot): Promise<void> {
  const url = route.request().url()
  try {
    const { body, contentType } = await fetchPublicUrl(url)
    await route.fulfill({ status: 200, body, contentType, headers: { 'access-control-allow-origin': '*' } })
  } catch (error) {
    slot.requestWarnings.push(`external texture ${url} refused: ${(error as Error).message}`)
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
      throw new Error(
        `cannot start Chromium at ${env.CHROMIUM_PATH} (CHROMIUM_PATH): ${(error as Error).message.split('\n')[0]}`,
      )
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
  if (!dataUrl.startsWith(prefix))
    throw new Error(`the headless page encoded ${dataUrl.slice(0, 30)} instead of image/${type}`)
  return Buffer.from(dataUrl.slice(prefix.length), 'base64')
}

/** The promise, unless the time runs out (504) or the client goes away first. */
async function withLimits<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  let onAbort = () => {}
  const limits = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AppError('gateway_timeout', `Rendering took longer than ${ms / 1000} s`)), ms)
    onAbort = () => reject(cancelled('while rendering'))
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, { once: true })
  })
  try {
    return await Promise.race([promise, limits])
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}
