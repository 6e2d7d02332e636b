// Custom server: start-up checks and migrations before Next.js serves anything.
import './lib/node-version-guard'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import next from 'next'
import { failStartUp as fail } from './lib/start-up'

const isDev = process.argv.includes('--dev')

async function main() {
  // Loaded only after the environment and DATA_DIR are known good, so that a bad setting
  // ends start-up with one line instead of a failure inside the database driver.
  const { env } = await import('./lib/env')
  const { checkDataDir } = await import('./lib/data-dir')
  await checkDataDir(env.DATA_DIR)
  const { checkEngines, warmUpEngines } = await import('./lib/cad/engine-versions')
  try {
    checkEngines()
  } catch (error) {
    fail((error as Error).message)
  }
  const { prepareDatabase } = await import('./lib/set-up-database')
  const { migrations, demos } = await prepareDatabase()
  const { logger } = await import('./lib/log')
  if (migrations.length > 0) logger.info({ migrations }, `applied migrations ${migrations.join(', ')}`)
  if (demos.length > 0) logger.info(`added ${demos.length} demo configurators`)
  if (env.BUILD_WORKERS > 0) {
    warmUpEngines()
    ;(await import('./lib/slicing/slicer')).startSlicer()
  }
  // What a model change sets off (forgotten rows, a preparation), including changes a stopped instance left.
  await (await import('./lib/sessions/model-change-effects')).followModelChanges()
  // With PostgreSQL builds are jobs on the queue; this process runs BUILD_WORKERS of them.
  if (env.DATABASE_URL) {
    await (await import('./lib/queue/build-worker')).ensureBuildWorker()
    ;(await import('./lib/queue/build-queue')).measureQueueDepth()
  }

  const app = next({ dev: isDev, dir: import.meta.dirname })
  await app.prepare()
  const handle = app.getRequestHandler()
  const { rawPathProblem } = await import('./lib/api/raw-path')
  const { isSceneUpdateByGet } = await import('./lib/renderers/is-scene-update-by-get')
  const { findEmbedApplication } = await import('./lib/applications/applications')
  const { frameAncestors } = await import('./lib/applications/application-domain')
  const { CLIENT_ADDRESS_HEADER, clientAddressOf } = await import('./lib/api/client-address')
  const { observeRequest } = await import('./lib/endpoints/request-log')
  const { serveMetrics } = await import('./lib/metrics')
  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    observeRequest(request, response)
    if (request.url?.split('?')[0] === '/metrics') return serveMetrics(request, response)
    // Replaces whatever a client sent under this name: route handlers cannot see the socket.
    request.headers[CLIENT_ADDRESS_HEADER] = clientAddressOf(request)
    const problem = rawPathProblem(request.url ?? '/')
    if (problem) {
      const body = JSON.stringify({ error: { code: 'bad_request', message: `Invalid path: ${problem}` } })
      response.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
      response.end(body)
      return
    }
    // Update scene is a GET with a JSON body in the interface; Next drops GET bodies, PUT keeps them.
    if (isSceneUpdateByGet(request.method, request.url, request.headers)) request.method = 'PUT'
    // Only the application's own domain may frame its embed page. Decided per request from the
    // database, so it lives here rather than in next.config's static headers.
    const embedKey = /^\/embed\/([^/?#]+)/.exec(request.url ?? '')?.[1]
    if (embedKey) {
      // Unknown key, bad encoding or a failed lookup: nobody may frame the page.
      const application = await Promise.resolve(embedKey)
        .then((key) => findEmbedApplication(decodeURIComponent(key)))
        .catch(() => null)
      response.setHeader(
        'content-security-policy',
        `frame-ancestors ${application ? frameAncestors(application.domain) : "'none'"}`,
      )
    } else if (!request.url?.startsWith('/api/')) {
      // Every other page may be framed by this site only (clickjacking); API answers are no pages.
      response.setHeader('content-security-policy', "frame-ancestors 'self'")
    }
    void handle(request, response)
  }
  const server = createServer((request, response) => void serve(request, response))
  server.on('error', (error: NodeJS.ErrnoException) =>
    fail(`cannot listen on port ${env.PORT} (${error.code ?? error.message})`),
  )
  const { recordServerUrl } = await import('./lib/embedded-lock')
  const { registerWebInstance } = await import('./lib/webhooks/web-instances')
  server.listen(env.PORT, () => {
    logger.info(`listening on http://localhost:${env.PORT}`)
    const { port } = server.address() as AddressInfo
    // `npm run library` finds the server that holds the embedded database here.
    recordServerUrl(`http://127.0.0.1:${port}`)
    // Webhooks never go to any instance of the deployment.
    registerWebInstance(port).catch((error: unknown) => logger.error({ err: error }, 'cannot register this instance'))
  })
  // SIGTERM/SIGINT: no new connections, requests in flight finish (a connection closes as soon as it
  // is idle), then the shutdown steps (lib/shutdown.ts), then exit 0. Whatever still runs after
  // SHUTDOWN_TIMEOUT_SECONDS is cut off with exit code 1: work was lost. A repeated signal changes nothing.
  const { runShutdown } = await import('./lib/shutdown')
  let stopping: Promise<void> | undefined
  const stop = (signal: NodeJS.Signals) => {
    stopping ??= (async () => {
      logger.info(`${signal}, finishing requests in flight`)
      setTimeout(() => {
        logger.error(`still busy ${env.SHUTDOWN_TIMEOUT_SECONDS} s after ${signal}, cutting off`)
        server.closeAllConnections()
        process.exit(1)
      }, env.SHUTDOWN_TIMEOUT_SECONDS * 1000)
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      )
      setInterval(() => server.closeIdleConnections(), 100)
      await closed
      await runShutdown()
      process.exit(0)
    })().catch((error: unknown) => fail(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`))
  }
  // Before the demo shop starts: a signal during its start-up still shuts down in order.
  process.on('SIGTERM', stop).on('SIGINT', stop)
  if (env.DEMO_SHOP_PORT > 0)
    await startShop(env.DEMO_SHOP_PORT, env.PORT, env.DATA_DIR, env.DEMO_SHOP_FAIL_FIRST_WEBHOOK)
}

/** The demo shop (demo/shop) on its own origin, embedding the name tag; skipped without that demo. */
async function startShop(port: number, paraformPort: number, dataDir: string, failFirstDelivery: boolean) {
  const application = await (await import('./lib/demo/demo-shop')).ensureDemoShopApplication(port)
  const { logger } = await import('./lib/log')
  if (!application) return logger.info('no demo shop (the name tag demo is not there)')
  const { startDemoShop } = await import('./demo/shop/shop')
  const shop = await startDemoShop({
    port,
    paraformUrl: `http://127.0.0.1:${paraformPort}`,
    applicationKey: application.key,
    applicationSecret: application.secretKey,
    webhookSecret: application.webhookSecret,
    ordersDir: `${dataDir}/shop-orders`,
    failFirstDelivery,
  }).catch((error: Error) =>
    fail(`cannot start the demo shop on port ${port} (${error.message}); DEMO_SHOP_PORT=0 turns it off`),
  )
  const { onShutdown } = await import('./lib/shutdown')
  onShutdown(() => new Promise<void>((resolve) => shop.close(() => resolve())))
  logger.info(
    `demo shop on http://localhost:${port} (a ` +
      `shop page on another origin: live price, ` +
      `set the text, pick a style (a preset), ` +
      `Add to cart -> snapshot -> webhook -> 3MF)`,
  )
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)))
