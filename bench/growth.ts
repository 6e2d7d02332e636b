// How a slider move's cost grows with the work: a model with ten times the triangles and one
// with ten times the parameters, each against its base measured in the same run.
import { describe, ms } from './stats'
import { call } from '../test/support/api-client'

const RUNS = 10

interface Variant {
  label: string
  source: string
  /** The parameter each run sets to a new value. */
  parameter: string
  values: (run: number) => number
}

/** `count` tori along x: triangles grow with the count, the work per triangle stays the same. */
function tori(count: number): Variant {
  return {
    label: `${count} ${count === 1 ? 'torus' : 'tori'}`,
    source:
      `size = 20; // [10:0.01:40]\nfor (i = ` +
      `[0:${count - 1}]) translate([i * size * 1.3, 0, ` +
      `0]) rotate_extrude($fn = 64) translate([size ` +
      `/ 2, 0]) circle(size / 6, $fn = 24);\n`,
    parameter: 'size',
    values: (run) => 20 + run / 10,
  }
}

/** A block whose height takes every one of `count` parameters: the geometry stays the same. */
function parameters(count: number): Variant {
  const keys = Array.from({ length: count }, (_, i) => `p${i}`)
  return {
    label: `${count} parameters`,
    source: `${keys.map((key) => `// Part ${key}\n${key} = 1; // [0:0.01:5]\n`).join('')}cube([20, 20, 1 + (${keys.join(' + ')}) / ${count}]);\n`,
    parameter: 'p0',
    values: (run) => 1 + run / 10,
  }
}

/** A configurator of the variant and a session of it whose path is warm: `move` times one uncached slider move. */
async function open(token: string, variant: Variant) {
  const created = await call('createConfigurator', {
    token,
    body: { name: `Growth ${variant.label} ${process.pid}`, mainFile: 'main.scad' },
  })
  const { UUID: configuratorId } = (await created.json()) as { UUID: string }
  await call('uploadConfiguratorFile', {
    token,
    params: { configuratorId, path: ['configurator', 'main.scad'] },
    body: variant.source,
  })
  const { id } = (await (await call('createSession', { token, body: { configuratorId } })).json()) as { id: string }
  const params = { sessionId: id }
  const fetched = async (what: string, response: Response) => {
    if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`)
    return new Uint8Array(await response.arrayBuffer())
  }
  const samples = { moves: [] as number[], reads: [] as number[], bytes: 0 }
  const move = async (run: number) => {
    let started = performance.now()
    await fetched(
      'parameters',
      await call('setParameters', { token, params, body: { [variant.parameter]: { value: variant.values(run) } } }),
    )
    samples.bytes = (await fetched('model', await call('getModel', { token, params }))).byteLength
    if (run >= 0) samples.moves.push(performance.now() - started)
    started = performance.now()
    await fetched('parameters', await call('getParameters', { token, params }))
    if (run >= 0) samples.reads.push(performance.now() - started)
  }
  await move(-1)
  return { variant, move, samples }
}

export async function benchGrowth(token: string): Promise<void> {
  console.log('\n## Growth: an uncached slider move (PUT then GET model, STL) as the model grows')
  console.log('| model | triangles | STL bytes | move p50 | move p95 | GET parameters p50 | move p50 / base |')
  console.log('|---|---|---|---|---|---|---|')
  for (const [base, grown] of [
    [tori(1), tori(10)],
    [parameters(5), parameters(50)],
  ] as const) {
    const pair = [await open(token, base), await open(token, grown)]
    // Taking turns, so that both see the machine in the same state.
    for (let run = 0; run < RUNS; run++) for (const session of pair) await session.move(run)
    const baseline = describe(pair[0]!.samples.moves).p50
    for (const { variant, samples } of pair) {
      const [move, read] = [describe(samples.moves), describe(samples.reads)]
      // Binary STL: an 84-byte header, then 50 bytes per triangle.
      console.log(
        `| ${variant.label} | ` +
          `${(samples.bytes - 84) / 50} ` +
          `| ${samples.bytes} | ${ms(move.p50)} ` +
          `| ${ms(move.p95)} | ${ms(read.p50)} | ` +
          `${(move.p50 / baseline).toFixed(2)}x |`,
      )
    }
  }
  console.log('\nAim: ten times the triangles at most ten times the time (the engine works per triangle); ten times')
  console.log('the parameters about the same time (only the parameter list grows).')
}
