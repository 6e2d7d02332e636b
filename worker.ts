// Build worker (`npm run worker`): runs CAD jobs and webhook deliveries from the PostgreSQL queue, serves no HTTP.
// It runs with the react-server condition, as Next.js runs route handlers: the outbound-address
// checks webhooks share with the image renderer are marked server-only.
import './lib/node-version-guard'
import { failStartUp } from './lib/start-up'

async function main() {
  const { env } = await import('./lib/env')
  if (!env.DATABASE_URL) failStartUp('npm run worker needs DATABASE_URL: the build queue lives in PostgreSQL (the embedded database builds inside `npm start`)')
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
  const { ensureBuildWorker } = await import('./lib/queue/build-worker')
  const worker = await ensureBuildWorker()
  // Webhook deliveries are jobs on the same queue; every process with workers sends them.
  await (await import('./lib/webhooks/webhook-queue')).ensureWebhookWorker()
  console.log(`paraform: build worker ${worker?.id} running up to ${env.BUILD_WORKERS} builds at once, and webhook deliveries`)

  // Finishes running builds (or hands them back to the queue), then leaves.
  const { runShutdown } = await import('./lib/shutdown')
  let stopping: Promise<void> | undefined
  const stop = (signal: NodeJS.Signals) => {
    stopping ??= (async () => {
      console.log(`paraform: ${signal}, finishing running builds`)
      await runShutdown()
      process.exit(0)
    })().catch((error: unknown) => failStartUp(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`))
  }
  process.on('SIGTERM', stop).on('SIGINT', stop)
}

main().catch((error: unknown) => failStartUp(error instanceof Error ? error.message : String(error)))
