// The AR files of a configured product (issue 50): how long the USDZ of each demo takes the first
// time (built earlier, written now) and once cached, and its size, against the GLB of the same
// model in this run (the baseline: the file the viewer loads).
import { operationPath } from '@/lib/endpoints/client'
import { startServer, stopServer, tempDir } from '@/test/support/start-server'
import { settledMachine } from '@/test/support/machine'
import { type Model, MODELS, openCustomer } from './foreground'
import { hasProductionBuild, ms } from './stats'

type Customer = Awaited<ReturnType<typeof openCustomer>>

async function download({ url, headers, sessionId }: Customer, type: string) {
  const started = performance.now()
  const response = await fetch(`${url}/api${operationPath('getModel', { params: { sessionId }, query: { type } })}`, {
    headers,
  })
  const bytes = (await response.arrayBuffer()).byteLength
  if (!response.ok) throw new Error(`${type}: ${response.status}`)
  return { ms: performance.now() - started, bytes }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`

export async function benchAr(): Promise<void> {
  console.log('\n## AR files: the USDZ of each demo, first and cached, against its GLB')
  if (!hasProductionBuild('the server')) return
  const server = await startServer({ DATA_DIR: tempDir(), SEED_DEMO: 'true', PREPARE_MODELS: 'false' })
  try {
    await settledMachine()
    console.log('\n| model (defaults) | GLB first | USDZ first | USDZ cached | GLB size | USDZ size |')
    console.log('|---|---|---|---|---|---|')
    for (const model of MODELS.filter((candidate: Model) => !candidate.file)) {
      const customer = await openCustomer(server.url, model)
      // The model itself built first: what is timed is writing each file.
      await download(customer, 'stl')
      const glb = await download(customer, 'glb')
      const usdz = await download(customer, 'usdz')
      const cached = await download(customer, 'usdz')
      console.log(
        `| ${model.slug} | ${ms(glb.ms)} | ${ms(usdz.ms)} | ${ms(cached.ms)} | ${kb(glb.bytes)} | ${kb(usdz.bytes)} |`,
      )
    }
    console.log(
      '\nOver HTTP, one customer, the preview quality of the demo at its defaults; "first" is the first request for ' +
        'that type once the model is built (the file written from the cached mesh), "cached" the next.',
    )
  } finally {
    await stopServer(server)
  }
}
