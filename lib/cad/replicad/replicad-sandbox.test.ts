import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type BuildAnswer,
  type BuildInput,
  type ReplicadSandbox,
  startSandbox,
} from '@/lib/cad/replicad/replicad-sandbox'

// replicad models in their sandbox, one child for the whole file: real builds, then every way out
// this test knows, each a failed build with a clear log line, followed by another model's build
// in the same sandbox that works and sees nothing the last one tried.
const MEMORY_LIMIT_BYTES = 1024 * 1024 * 1024
/** Above a usual build's resident memory (about 250 MB), below what the recycling test allocates. */
const RECYCLE_RSS_BYTES = 600 * 1024 * 1024
const HOST_SECRET = `paraform-host-secret-${process.pid}`
process.env.PARAFORM_TEST_SECRET = HOST_SECRET

let sandbox: ReplicadSandbox
let server: http.Server
let serverUrl: string
let connections = 0

beforeAll(async () => {
  server = http.createServer((_, response) => response.end('reached'))
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  sandbox = await startSandbox({ memoryLimitBytes: MEMORY_LIMIT_BYTES, recycleRssBytes: RECYCLE_RSS_BYTES })
})

afterAll(async () => {
  await sandbox?.close()
  await new Promise((resolve) => server?.close(resolve))
})

function input(code: string, values: BuildInput['values'] = {}): BuildInput {
  return { code, values, tolerance: 0.05, angularTolerance: 0.2 }
}

function build(code: string, values: BuildInput['values'] = {}, timeLimitMs = 30_000): Promise<BuildAnswer> {
  return sandbox.build(input(code, values), timeLimitMs).then((answer) => {
    expectNothingOfTheHost(answer)
    return answer
  })
}

function expectNothingOfTheHost(answer: object) {
  const answered = JSON.stringify(answer)
  expect(answered).not.toContain('root:x:')
  expect(answered).not.toContain(os.hostname())
  expect(answered).not.toContain(HOST_SECRET)
  expect(answered).not.toContain('/work/')
}

/** Every part's triangles index its own vertices. */
function expectWellFormed(answer: BuildAnswer) {
  for (const part of answer.parts!) {
    expect(part.positions.length % 3).toBe(0)
    expect(part.indices.length % 3).toBe(0)
    expect(Math.max(...part.indices)).toBeLessThan(part.positions.length / 3)
  }
}

// Checks every place a model tried to write, then builds a box of its own size: another model,
// in the same sandbox, after the one that tried.
const CHECK = `function main(replicad, { size }) {
  const box = replicad.makeBaseBox(size, 2, 3)
  const record = Object.values(Object.getOwnPropertyDescriptors(box.wrapped))[0].value
  const pointer = Object.values(record).find((value) => value && typeof value === 'object' && Object.getPrototypeOf(value) !== Object.prototype)
  let exception
  try {
    replicad.makeBaseBox(1, 1, 1).fillet(5)
  } catch (error) {
    exception = error
  }
  const places = {
    'Object.prototype': Object.prototype,
    'Array.prototype': Array.prototype,
    replicad,
    'replicad.makeBaseBox': replicad.makeBaseBox,
    'replicad.Shape.prototype': replicad.Shape.prototype,
    'an embind prototype': Object.getPrototypeOf(box.wrapped),
    'the bindings': box.oc,
    'an embind pointer type': pointer,
    'an OpenCascade exception prototype': Object.getPrototypeOf(exception),
  }
  for (const [name, place] of Object.entries(places))
    if (Object.hasOwn(place, 'polluted') || place.polluted !== undefined) throw new Error(name + ' was changed')
  if (replicad.makeBaseBox.name !== 'makeBaseBox' || [1, 2].map((x) => x * 2).join() !== '2,4') throw new Error('a function was replaced')
  if (typeof box.oc.gp_Pnt !== 'function') throw new Error('the bindings were changed')
  return box
}`

async function expectNextBuildWorks(startsBefore?: number) {
  const size = 2 + Math.round(Math.random() * 20)
  const answer = await sandbox.build(input(CHECK, { size }), 30_000)
  expect(answer.log).toEqual([])
  expect(answer.ok).toBe(true)
  expect(answer.parts![0]!.volume).toBeCloseTo(size * 6, 6)
  if (startsBefore !== undefined) expect(sandbox.starts).toBe(startsBefore)
}

describe('replicad models in the sandbox', () => {
  it('builds a filleted L-bracket with its values over its defaults, to its analytic volume', async () => {
    const code = `const defaultParams = { length: 40, height: 30, thickness: 5, width: 10, radius: 4 }

function main({ draw }, { length, height, thickness, width, radius }) {
  const profile = draw().hLine(length).vLine(thickness).hLine(thickness - length)
    .vLine(height - thickness).hLine(-thickness).close()
  return profile.sketchOnPlane('XZ').extrude(-width)
    .fillet(radius, (edge) => edge.inDirection('Y').containsPoint([thickness, width / 2, thickness]))
}`
    const answer = await build(code, { width: 20 })
    expect(answer.log).toEqual([])
    expect(answer.ok).toBe(true)
    expect(answer.defaultParams).toEqual({ length: 40, height: 30, thickness: 5, width: 10, radius: 4 })
    // Both legs, the corner counted once, and the fillet's concave corner added, times the width.
    const area = 40 * 5 + (30 - 5) * 5 + 4 * 4 * (1 - Math.PI / 4)
    expect(answer.parts).toHaveLength(1)
    expect(answer.parts![0]!.volume).toBeCloseTo(area * 20, 6)
    expectWellFormed(answer)
    const xs = answer.parts![0]!.positions.filter((_, index) => index % 3 === 0)
    expect(Math.min(...xs)).toBeCloseTo(0, 4)
    expect(Math.max(...xs)).toBeCloseTo(40, 4)
  })

  it('builds a list of named, coloured parts, and writes them as STEP in millimetres', async () => {
    const code = `function main(replicad) {
  return [
    { shape: replicad.makeBaseBox(30, 20, 4), name: 'base', color: '#336699' },
    { shape: replicad.makeCylinder(3, 10, [0, 0, 4]), name: 'pin' },
  ]
}`
    const answer = await build(code)
    expect(answer.ok).toBe(true)
    expect(answer.parts!.map(({ name, color }) => ({ name, color }))).toEqual([
      { name: 'base', color: '#336699' },
      { name: 'pin', color: undefined },
    ])
    expect(answer.parts![0]!.volume).toBeCloseTo(30 * 20 * 4, 6)
    expect(answer.parts![1]!.volume).toBeCloseTo(Math.PI * 9 * 10, 6)
    expectWellFormed(answer)

    const step = await sandbox.step(input(code), 30_000)
    expect(step.ok).toBe(true)
    expect(step.log).toEqual([])
    expect(step.step).toMatch(/^ISO-10303-21;/)
    expect(step.step).toMatch(/SI_UNIT\(\.MILLI\.,\.METRE\.\)/)
    expect(step.step!.match(/MANIFOLD_SOLID_BREP/g)).toHaveLength(2)
    expect(step.step).toContain("'base'")
    expect(step.step).toContain("'pin'")
  })

  it('draws a 2D drawing as SVG paths with its bounding box', async () => {
    const answer = await build(`function main({ drawRoundedRectangle, drawCircle }) {
  return drawRoundedRectangle(30, 20, 3).cut(drawCircle(4))
}`)
    expect(answer.ok).toBe(true)
    expect(answer.parts).toBeUndefined()
    expect(answer.drawing!.svgPaths).toHaveLength(1)
    expect(answer.drawing!.svgPaths[0]).toHaveLength(2)
    expect(answer.drawing!.svgPaths[0]![1]).toMatch(/^M -4 0 A 4 4/)
    const [[xMin, yMin], [xMax, yMax]] = answer.drawing!.boundingBox
    expect([xMin, yMin, xMax, yMax].map((value) => Math.round(value))).toEqual([-15, -10, 15, 10])
  })

  it('reads ES module syntax: imports from replicad, exported defaultParams, parameters and main', async () => {
    const answer = await build(`import { makeCylinder, makeBaseBox as box } from 'replicad'
import * as replicad from 'replicad'

export const defaultParams = { radius: 5 }
export const parameters = [{ name: 'radius', type: 'number' }]

export default function main(_, { radius }) {
  return replicad.makeCylinder(radius, 10).fuse(box(1, 1, 1)) && makeCylinder(radius, 10)
}
`)
    expect(answer.log).toEqual([])
    expect(answer.defaultParams).toEqual({ radius: 5 })
    expect(answer.parameters).toEqual([{ name: 'radius', type: 'number' }])
    expect(answer.parts![0]!.volume).toBeCloseTo(Math.PI * 25 * 10, 6)

    const read = await sandbox.parameters(
      { code: 'export const defaultParams = { a: 1 }\nexport function main() {\n  for (;;) {}\n}' },
      5_000,
    )
    expect(read).toMatchObject({ ok: true, log: [], defaultParams: { a: 1 } })

    const named = await build(`const size = 4
function build(replicad) {
  return replicad.makeBaseBox(size, size, size)
}
export { build as main }`)
    expect(named.parts![0]!.volume).toBeCloseTo(64, 6)
  })

  it("names the model's line of a thrown error, a syntax error and a bad import", async () => {
    const thrown = await build(`const defaultParams = { size: 3 }

function main(replicad, { size }) {
  if (size < 5) throw new Error('the size is too small')
  return replicad.makeBaseBox(size, size, size)
}`)
    expect(thrown.ok).toBe(false)
    expect(thrown.log).toEqual(['ERROR: Error: the size is too small (model.js:4:23)'])
    expect(thrown.defaultParams).toEqual({ size: 3 })

    const syntax = await build('export function main(replicad) {\n  const x = \n}\n')
    expect(syntax.log).toEqual([expect.stringMatching(/^ERROR: SyntaxError: .* \(model\.js:3\)$/)])

    const opencascade = await build('function main({ makeBaseBox }) {\n  return makeBaseBox(10, 10, 10).fillet(20)\n}')
    expect(opencascade.log).toEqual(['ERROR: OpenCascade StdFail_NotDone: BRep_API: command not done'])

    const named = await sandbox.build(
      { ...input("export function main() {\n  throw new RangeError('no')\n}"), file: 'parts/bracket.js' },
      30_000,
    )
    expect(named.log).toEqual(['ERROR: RangeError: no (parts/bracket.js:2:9)'])
  })

  it("collects the model's console lines", async () => {
    const answer = await build(`function main(replicad) {
  console.log('size', 3, { nested: [1, 2] })
  console.warn('thin wall')
  return replicad.makeBaseBox(3, 3, 3)
}`)
    expect(answer.log).toEqual(['size 3 { nested: [ 1, 2 ] }', 'WARNING: thin wall'])
  })
})

describe('the sandbox over time', () => {
  it('answers a build that outgrew the memory the child may keep, then builds the next in a fresh child', async () => {
    const starts = sandbox.starts
    const answer = await build(`function main(replicad) {
  new Float64Array(90 * 1024 * 1024).fill(1)
  return replicad.makeBaseBox(1, 2, 3)
}`)
    expect(answer.ok).toBe(true)
    expect(answer.retiring).toBe(true)
    await expectNextBuildWorks(starts + 1)
  })

  it('a cancelled build rejects with its reason, and the next runs in a fresh child', async () => {
    const starts = sandbox.starts
    const controller = new AbortController()
    const building = sandbox.build(input('function main() {\n  for (;;) {}\n}'), 30_000, controller.signal)
    setTimeout(() => controller.abort(new Error('the customer moved on')), 500)
    await expect(building).rejects.toThrow('the customer moved on')
    await expectNextBuildWorks(starts + 1)
  })

  it('builds requests one at a time, in order', async () => {
    const sizes = [3, 4, 5, 6]
    const answers = await Promise.all(sizes.map((size) => sandbox.build(input(CHECK, { size }), 30_000)))
    expect(answers.map((answer) => Math.round(answer.parts![0]!.volume))).toEqual(sizes.map((size) => size * 6))
  })
})

describe('ways out of the replicad sandbox', () => {
  it.each([
    ['require', `return require('fs').readFileSync('/etc/passwd', 'utf8')`, /require is not a function/],
    ['process', `return process.mainModule.require('fs').readFileSync('/etc/passwd', 'utf8')`, /reading 'mainModule'/],
    [
      "the Function constructor of replicad's functions",
      `return replicad.makeBaseBox.constructor('return process')().env`,
      /Function\.prototype\.constructor is not a valid constructor/,
    ],
    [
      "a shape's constructor's constructor",
      `const shape = replicad.makeBaseBox(1, 1, 1)
  return shape.constructor.constructor('return process')().env`,
      /Function\.prototype\.constructor is not a valid constructor/,
    ],
    [
      "an embind object's constructor's constructor",
      `const shape = replicad.makeBaseBox(1, 1, 1)
  return shape.wrapped.constructor.constructor('return process')().env`,
      /Function\.prototype\.constructor is not a valid constructor/,
    ],
    ["the compartment's own Function", `return Function('return process')().env`, /reading 'env'/],
    ['process.env', `return process.env.PARAFORM_TEST_SECRET`, /reading 'env'/],
    ['import() of fs', `return import('fs')`, /a model cannot import modules.*\(model\.js:2\)/],
    ['import() of child_process', `return import('child_process')`, /a model cannot import modules.*\(model\.js:2\)/],
    ['import() of worker_threads', `return import('worker_threads')`, /a model cannot import modules.*\(model\.js:2\)/],
    [
      "OpenCascade's own file reader",
      `const shape = replicad.makeBaseBox(1, 1, 1)
  const status = new shape.oc.STEPControl_Reader().ReadFile('/etc/passwd')
  throw new Error('OpenCascade read /etc/passwd: ' + status)`,
      /IFSelect_RetVoid|IFSelect_RetError|IFSelect_RetFail/,
    ],
  ])('%s: no host file or environment', async (_, body, message) => {
    const starts = sandbox.starts
    const answer = await build(`function main(replicad) {\n  ${body}\n}`)
    expect(answer.ok).toBe(false)
    expect(answer.log).toEqual([expect.stringMatching(message)])
    await expectNextBuildWorks(starts)
  })

  it('a static import of another module fails at its line', async () => {
    const answer = await build(
      `import { makeBaseBox } from 'replicad'\nimport fs from 'node:fs'\nexport function main() {}`,
    )
    expect(answer.log).toEqual(['ERROR: a model can import only from "replicad", not from "node:fs" (model.js:2)'])
    await expectNextBuildWorks()
  })

  it.each([
    ['fetch', `return fetch('URL')`, /fetch is not a function/],
    ['a WebSocket', `return new WebSocket('URL'.replace('http', 'ws'))`, /WebSocket is not a constructor/],
    ["replicad's loadFont, which fetches", `return replicad.loadFont('URLfont.ttf')`, /loadFont\(\) is not available/],
  ])('%s: no network', async (_, body, message) => {
    const starts = sandbox.starts
    const answer = await build(`async function main(replicad) {\n  ${body.replace('URL', serverUrl)}\n}`)
    expect(answer.log).toEqual([expect.stringMatching(message)])
    expect(connections).toBe(0)
    await expectNextBuildWorks(starts)
  })

  it('an endless loop is stopped at its time limit, and the next build runs in a fresh child', async () => {
    const starts = sandbox.starts
    const started = Date.now()
    const answer = await sandbox.build(input('function main() {\n  for (;;) {}\n}'), 2_000)
    expect(answer.ok).toBe(false)
    expect(answer.log).toEqual(['ERROR: the build was stopped after its time limit of 2 s'])
    expect(Date.now() - started).toBeLessThan(10_000)
    await expectNextBuildWorks(starts + 1)
  })

  it('an ArrayBuffer of 4 GB fails at its line within the memory limit, and the child lives on', async () => {
    const starts = sandbox.starts
    const answer = await build('function main() {\n  return new ArrayBuffer(4e9)\n}')
    expect(answer.log).toEqual([
      'ERROR: the build needed more than its memory limit of 1024 MB (RangeError: Array buffer allocation failed) (model.js:2:10)',
    ])
    await expectNextBuildWorks(starts)
  })

  it('a growing array ends its child at the memory limit, and the next build runs in a fresh one', async () => {
    const starts = sandbox.starts
    const answer = await build('function main() {\n  const all = []\n  for (;;) all.push(new Array(1e5).fill(1.5))\n}')
    expect(answer.ok).toBe(false)
    expect(answer.log).toEqual(['ERROR: the build needed more than its memory limit of 1024 MB'])
    await expectNextBuildWorks(starts + 1)
  })

  it("OpenCascade's heap growing past the memory limit fails the build, and the next runs in a fresh child", async () => {
    const starts = sandbox.starts
    // About 2.7 GB of WebAssembly memory unbounded (measured), past the limit of 1 GB.
    const answer = await sandbox.build(
      {
        code: 'function main(r) {\n  return r.makeSphere(50)\n}',
        values: {},
        tolerance: 0.001,
        angularTolerance: 0.02,
      },
      120_000,
    )
    expect(answer.log).toEqual(['ERROR: the build needed more than its memory limit of 1024 MB'])
    expect(answer.retiring).toBe(true)
    await expectNextBuildWorks(starts + 1)
  })

  it.each([
    ['Object.prototype', `Object.prototype.polluted = 1`],
    ['Object.prototype through defineProperty', `Object.defineProperty(Object.prototype, 'polluted', { value: 1 })`],
    ['Array.prototype.map', `Array.prototype.map = () => []`],
    ["replicad's exports", `replicad.polluted = 1`],
    ['a replicad export replaced', `replicad.makeBaseBox = () => null`],
    ['a replicad function', `replicad.makeBaseBox.polluted = 1`],
    ["a replicad class's prototype", `replicad.Shape.prototype.polluted = 1`],
    ['an embind prototype', `Object.getPrototypeOf(replicad.makeBaseBox(1, 1, 1).wrapped).polluted = 1`],
    ['the embind bindings', `replicad.makeBaseBox(1, 1, 1).oc.gp_Pnt = null`],
    [
      'an embind pointer type, inside an object',
      `const record = Object.values(Object.getOwnPropertyDescriptors(replicad.makeBaseBox(1, 1, 1).wrapped))[0].value
  const pointer = Object.values(record).find((value) => value && typeof value === 'object' && Object.getPrototypeOf(value) !== Object.prototype)
  pointer.polluted = 1`,
    ],
    [
      "an OpenCascade exception's prototype",
      `try {
    replicad.makeBaseBox(1, 1, 1).fillet(5)
  } catch (error) {
    Object.getPrototypeOf(error).polluted = 1
  }`,
    ],
    [
      "the Blob of replicad's exportSTEP",
      `Object.getPrototypeOf(replicad.exportSTEP([{ shape: replicad.makeBaseBox(1, 1, 1) }])).text = () => 'forged'`,
    ],
  ])('%s cannot be changed for the next build', async (_, body) => {
    const starts = sandbox.starts
    const answer = await build(`function main(replicad) {\n  ${body}\n  return replicad.makeBaseBox(1, 1, 1)\n}`)
    expect(answer.ok).toBe(false)
    expect(answer.log).toEqual([
      expect.stringMatching(
        /^ERROR: TypeError: Cannot (add|assign to read only|define) property .* \(model\.js:\d+:\d+\)$/,
      ),
    ])
    await expectNextBuildWorks(starts)
  })

  it("a model's own STEP export in inches leaves the next STEP in millimetres", async () => {
    const inches = await build(`function main(replicad) {
  const box = replicad.makeBaseBox(1, 1, 1)
  replicad.exportSTEP([{ shape: box }], { unit: 'INCH' })
  return box
}`)
    expect(inches.ok).toBe(true)
    const step = await sandbox.step(input('function main(r) {\n  return r.makeBaseBox(2, 2, 2)\n}'), 30_000)
    expect(step.step).toMatch(/SI_UNIT\(\.MILLI\.,\.METRE\.\)/)
    expect(step.step).not.toMatch(/INCH/)
  })
})
