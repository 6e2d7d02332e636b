// Build worker (`npm run worker`): runs CAD jobs and webhook deliveries from the PostgreSQL queue, serves no HTTP but its metrics.
// It runs with the react-server condition, as Next.js runs route handlers: the outbound-address
// checks webhooks share with the image renderer are marked server-only.
import './lib/node-version-guard'
import { createServer } from 'node:http'
import { failStartUp } from './lib/start-up'

async function main() {
  const { env } = await import('./lib/env')
  if (!env.DATABASE_URL)
    failStartUp(
      'npm run worker needs DATABASE_URL: the build queue lives in PostgreSQL (the embedded database builds inside `npm start`)',
    )
  if (env.BUILD_WORKERS === 0) failStartUp('BUILD_WORKERS must be at least 1 for a build worker')
  const { checkDataDir } = await import('./lib/data-dir')
  await checkDataDir(env.DATA_DIR)
  const { checkEngines, warmUpEngines } = await import('./lib/cad/engine-versions')
  try {
    checkEngines()
  } catch (error) {
    failStartUp((error as Error).message)
  }
  const { migrateDatabase } = await import('./lib/set-up-database')
  await migrateDatabase()
  warmUpEngines()
  ;(await import('./lib/slicing/slicer')).startSlicer()
  const { ensureBuildWorker } = await import('./lib/queue/build-worker')
  const worker = await ensureBuildWorker()
  // Webhook deliveries are jobs on the same queue; every process with workers sends them.
  await (await import('./lib/webhooks/webhook-queue')).ensureWebhookWorker()
  const { logger } = await import('./lib/log')
  if (env.METRICS_PORT) await serveMetricsOn(env.METRICS_PORT)
  logger.info(`build worker ${worker?.id} running up to ${env.BUILD_WORKERS} builds at once, and webhook deliveries`)

  // Finishes running builds (or hands them back to the queue), then leaves.
  const { runShutdown } = await import('./lib/shutdown')
  let stopping: Promise<void> | undefined
  const stop = (signal: NodeJS.Signals) => {
    stopping ??= (async () => {
      logger.info(`${signal}, finishing running builds`)
      await runShutdown()
      process.exit(0)
    })().catch((error: unknown) =>
      failStartUp(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`),
    )
  }
  process.on('SIGTERM', stop).on('SIGINT', stop)
}

/** Prometheus metrics on a port of their own (a worker serves no other HTTP), with the queue's depth. */
async function serveMetricsOn(port: number) {
  const { serveMetrics } = await import('./lib/metrics')
  ;(await import('./lib/queue/build-queue')).measureQueueDepth()
  const server = createServer((request, response) => {
    if (request.url?.split('?')[0] === '/metrics') return void serveMetrics(request, response)
    response
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { code: 'not_found', message: 'Only /metrics is served here' } }))
  })
  await new Promise<void>((resolve) =>
    server
      .once('error', (error: NodeJS.ErrnoException) =>
        failStartUp(`cannot serve metrics on METRICS_PORT ${port} (${error.code ?? error.message})`),
      )
      .listen(port, resolve),
  )
  server.unref()
}

main().catch((error: unknown) => failStartUp(error instanceof Error ? error.message : String(error)))
