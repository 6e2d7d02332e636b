import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { BuildInput } from '@/lib/cad/engine'
import { flatArea, isFlat } from '@/lib/cad/mesh/flat-outline'
import { measureMesh } from '@/lib/cad/mesh/measure-mesh'
import { measureSolid } from '@/lib/cad/mesh/printability'
import { replicadEngine } from '@/lib/cad/replicad/replicad-engine'

// The engine as the session code calls it: the pool's worker threads, each with its sandbox.

const BRACKET = fs.readFileSync('demo/mounting-bracket/main.js')

function input(code: string | Uint8Array, values: BuildInput['values'] = {}): BuildInput {
  return {
    files: [{ path: 'main.js', data: typeof code === 'string' ? new TextEncoder().encode(code) : code }],
    mainFile: 'main.js',
    libraries: [],
    values,
    overrides: { $tolerance: 0.05, $angularTolerance: 10 },
    timeLimitMs: 60_000,
    memoryLimitBytes: 1 << 30,
    scheduling: { fairness: { turn: crypto.randomUUID(), exclusive: [], shared: [] } },
  }
}

/** The L's area, the fillet's added corner, less every hole: the bracket's volume, exactly. */
function bracketVolume(p: Record<string, number>): number {
  const { width, depth, height, thickness: t, holes, holeDiameter, fillet } = p
  const section = depth! * t! + (height! - t!) * t! + (1 - Math.PI / 4) * fillet! ** 2
  return section * width! - 2 * holes! * Math.PI * (holeDiameter! / 2) ** 2 * t!
}

describe('the replicad engine', () => {
  it('reads the demo bracket parameters with their ranges, options and groups', async () => {
    const { ok, parameters, log } = await replicadEngine.readParameters(input(BRACKET))
    expect(log.error).toBe('')
    expect(ok).toBe(true)
    expect(parameters.map((parameter) => parameter.key)).toEqual([
      'width',
      'depth',
      'height',
      'thickness',
      'holes',
      'holeDiameter',
      'fillet',
    ])
    expect(parameters[0]).toEqual({
      key: 'width',
      caption: 'Width (mm)',
      group: 'Size',
      kind: 'number',
      default: 60,
      min: 30,
      max: 160,
      step: 1,
    })
    expect(parameters.find((parameter) => parameter.key === 'holeDiameter')).toMatchObject({
      kind: 'choice',
      options: expect.arrayContaining([{ value: 4.5, label: 'M4' }]) as unknown,
    })
  })

  it('builds the bracket, named and coloured, to its exact volume, and measures its closed parts', async () => {
    const values = { width: 80, depth: 40, height: 50, thickness: 6, holes: 3, holeDiameter: 5.5, fillet: 4 }
    const built = await replicadEngine.build(input(BRACKET, values))
    expect(built.log.error).toBe('')
    expect(
      built.mesh!.parts.map(({ name, color }) => ({ name, color: color.map((c) => Math.round(c * 255)) })),
    ).toEqual([{ name: 'Bracket', color: [0xa8, 0xb0, 0xba, 255] }])
    const mesh = built.mesh!
    // A mesh's volume is under the true one by the chords of the holes and the fillet.
    expect(measureSolid(mesh).volume / bracketVolume(values)).toBeCloseTo(1, 2)
    const closed = await replicadEngine.closeParts({ ...input(BRACKET, values), union: mesh })
    expect(closed.print!.parts).toHaveLength(1)
    expect(closed.print!.parts[0]!.volume).toBeCloseTo(measureSolid(mesh).volume, 0)
  })

  it('gives overlapping parts to the later one, so that the parts share nothing', async () => {
    const code = `function main({ makeBaseBox }) {
      return [
        { shape: makeBaseBox(20, 20, 20), name: 'Body', color: 'steelblue' },
        { shape: makeBaseBox(10, 10, 30), name: 'Pin', color: 'orange' },
      ]
    }`
    const { mesh, log } = await replicadEngine.build(input(code))
    expect(log.error).toBe('')
    const [body, pin] = mesh!.parts.map((part) => measureSolid({ parts: [part] }).volume)
    expect(body).toBeCloseTo(20 * 20 * 20 - 10 * 10 * 20, 3)
    expect(pin).toBeCloseTo(10 * 10 * 30, 3)
  })

  it('fails a model whose definitions contradict themselves, naming the parameter and its line', async () => {
    const code =
      "const defaultParams = { width: 300 }\nconst parameters = [\n  { name: 'width', min: 10, max: 200 },\n]\nfunction main() {}\n"
    const { ok, log } = await replicadEngine.readParameters(input(code))
    expect(ok).toBe(false)
    expect(log.error).toBe('ERROR: parameter width: its default 300 is outside its range 10 to 200 (main.js:3)')
  })

  it('fails a build that throws with the line it threw on, and one that returns no shape', async () => {
    const thrown = await replicadEngine.build(input('function main() {\n  throw new Error("too wide")\n}\n'))
    expect(thrown.mesh).toBeNull()
    expect(thrown.log.error).toMatch(/^ERROR: Error: too wide \(main\.js:2:\d+\)$/)
    const nothing = await replicadEngine.build(input('function main() { return 42 }'))
    expect(nothing.mesh).toBeNull()
    expect(nothing.log.error).toMatch(/^ERROR: main returned a number/)
  })
})

describe('a replicad drawing', () => {
  it('is a flat mesh of its outline, where the drawing has it', async () => {
    const code = `function main({ drawRectangle, drawCircle }) {
      return drawRectangle(40, 20).translate(20, 30).cut(drawCircle(5).translate(10, 30))
    }`
    const { mesh, log } = await replicadEngine.build(input(code))
    expect(log.error).toBe('')
    expect(isFlat(mesh!)).toBe(true)
    expect(measureMesh(mesh!).boundingBox).toEqual({ minX: 0, maxX: 40, minY: 20, maxY: 40, minZ: 0, maxZ: 0 })
    expect(flatArea(mesh!) / (800 - Math.PI * 25)).toBeCloseTo(1, 3)
  })
})
