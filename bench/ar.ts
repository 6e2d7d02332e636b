// The AR files of a configured product (issue 50): how long the USDZ of each demo takes the first
// time (built earlier, written now), once cached, and after the customer paused (written in the
// background meanwhile), and its size, against the GLB of the same model in this run (the
// baseline: the file the viewer loads). Then what writing it in the background costs a request:
// the longest the event loop is held, for a model at AR's size limit.
import { AR_MAX_TRIANGLES } from '@/lib/cad/mesh/export-mesh'
import type { Mesh } from '@/lib/cad/mesh/mesh'
import { writeUsdz, writeUsdzInSlices } from '@/lib/cad/mesh/write-usdz'
import { operationPath } from '@/lib/endpoints/client'
import { startServer, stopServer, tempDir } from '@/test/support/start-server'
import { settledMachine } from '@/test/support/machine'
import { type Model, MODELS, move, openCustomer } from './foreground'
import { hasProductionBuild, ms } from './stats'

type Customer = Awaited<ReturnType<typeof openCustomer>>

async function download(customer: Customer, type: string) {
  return timedGet(customer, operationPath('getModel', { params: { sessionId: customer.sessionId }, query: { type } }))
}

async function timedGet({ url, headers }: Customer, path: string) {
  const started = performance.now()
  const response = await fetch(`${url}/api${path}`, { headers })
  const bytes = (await response.arrayBuffer()).byteLength
  if (!response.ok) throw new Error(`${path}: ${response.status}`)
  return { ms: performance.now() - started, bytes }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`

export async function benchAr(): Promise<void> {
  console.log('\n## AR files: the USDZ of each demo, first and cached, against its GLB')
  if (!hasProductionBuild('the server')) return
  const server = await startServer({ DATA_DIR: tempDir(), SEED_DEMO: 'true', PREPARE_MODELS: 'false' })
  try {
    await settledMachine()
    console.log(
      '\n| model (defaults) | GLB first | USDZ first | USDZ cached | USDZ after a pause | GLB size | USDZ size |',
    )
    console.log('|---|---|---|---|---|---|---|')
    for (const model of MODELS.filter((candidate: Model) => !candidate.file)) {
      // The model itself built first: what is timed is writing each file.
      const customer = await openCustomer(server.url, model)
      await download(customer, 'stl')
      const glb = await download(customer, 'glb')
      const usdz = await download(customer, 'usdz')
      const cached = await download(customer, 'usdz')
      // Another customer's new values: the model shown, its figures read, then a pause before the tap.
      const paused = await openCustomer(server.url, model)
      await move(paused, model.parameter, model.value(1))
      await download(paused, 'glb')
      await timedGet(paused, operationPath('getObjectInfo', { params: { sessionId: paused.sessionId } }))
      await new Promise((resolve) => setTimeout(resolve, 2500))
      const tapped = await download(paused, 'usdz')
      console.log(
        `| ${model.slug} | ${ms(glb.ms)} | ${ms(usdz.ms)} | ${ms(cached.ms)} | ${ms(tapped.ms)} | ${kb(glb.bytes)} | ${kb(usdz.bytes)} |`,
      )
    }
    console.log(
      '\nOver HTTP, the preview quality of the demo at its defaults; "first" is the first request for that type once ' +
        'the model is built (the file written from the cached mesh), "cached" the next; "after a pause" is another ' +
        "customer's first USDZ of new values, asked for 2.5 s after the page read their model's figures (written in the " +
        'background meanwhile).',
    )
    await benchArStall()
  } finally {
    await stopServer(server)
  }
}

/** The longest the event loop went without a turn while `work` ran, and how long it ran. */
async function longestStall(work: () => unknown): Promise<{ stall: number; total: number }> {
  let stall = 0
  let last = performance.now()
  const ticker = setInterval(() => {
    const now = performance.now()
    stall = Math.max(stall, now - last)
    last = now
  }, 0)
  const started = performance.now()
  last = started
  await work()
  const total = performance.now() - started
  await new Promise((resolve) => setTimeout(resolve, 5))
  clearInterval(ticker)
  return { stall, total }
}

/** A closed sphere of about `triangles` triangles, in millimetres. */
function sphere(triangles: number): Mesh {
  const rings = Math.round(Math.sqrt(triangles / 4))
  const segments = rings * 2
  const positions: number[] = []
  for (let ring = 0; ring <= rings; ring++)
    for (let segment = 0; segment <= segments; segment++) {
      const [polar, azimuth] = [(ring / rings) * Math.PI, (segment / segments) * 2 * Math.PI]
      positions.push(
        40 * Math.sin(polar) * Math.cos(azimuth),
        40 * Math.sin(polar) * Math.sin(azimuth),
        40 * Math.cos(polar),
      )
    }
  const indices: number[] = []
  for (let ring = 0; ring < rings; ring++)
    for (let segment = 0; segment < segments; segment++) {
      const at = ring * (segments + 1) + segment
      indices.push(at, at + segments + 1, at + 1, at + 1, at + segments + 1, at + segments + 2)
    }
  return { parts: [{ color: [1, 1, 1, 1], positions: new Float32Array(positions), indices: new Uint32Array(indices) }] }
}

/** What writing the USDZ in the background costs a request: the longest the event loop is held, in slices and at once. */
export async function benchArStall(): Promise<void> {
  const mesh = sphere(AR_MAX_TRIANGLES)
  const rows: string[] = []
  for (let round = 0; round < 3; round++) {
    const atOnce = await longestStall(() => writeUsdz(mesh))
    const sliced = await longestStall(() => writeUsdzInSlices(mesh))
    rows.push(
      `| ${round + 1} | ${ms(atOnce.stall)} | ${ms(sliced.stall)} | ${ms(atOnce.total)} | ${ms(sliced.total)} |`,
    )
  }
  const triangles = mesh.parts[0]!.indices.length / 3
  console.log(`\nA ${triangles.toLocaleString('en')}-triangle model (AR's limit), in this process:`)
  console.log('\n| round | longest stall, at once | longest stall, in slices | total, at once | total, in slices |')
  console.log('|---|---|---|---|---|')
  for (const row of rows) console.log(row)
  console.log(
    '\nThe longest stall is the most a request arriving meanwhile waits for the event loop: the background ' +
      'writes in slices, a request written at once (the USDZ asked for before the pause) pays its whole time.',
  )
}
