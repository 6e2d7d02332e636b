import fs from 'node:fs'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { call, callJson } from '@/test/support/api-client'
import { expectError, openSession } from '@/test/support/fixtures'

// A replicad configurator through the same operations as an OpenSCAD one (docs/replicad.md).

const BRACKET = fs.readFileSync('demo/mounting-bracket/main.js', 'utf8')
const PRESETS = fs.readFileSync('demo/mounting-bracket/main.json', 'utf8')
const REPLICAD = { cadType: 'replicad' as const, mainFile: 'main.js' }

describe('a replicad configurator', () => {
  it('is offered by the server, and a new one gets its version', async () => {
    const { owner, configuratorId } = await openSession(BRACKET, REPLICAD)
    const capabilities = await callJson('getCapabilities', { token: owner.token })
    const replicad = capabilities.cad.find((cad) => cad.type === 'replicad')
    expect(replicad).toMatchObject({ type: 'replicad', versions: ['1.1'], default: '1.1' })
    const configurator = await callJson('getConfigurator', { params: { configuratorId }, token: owner.token })
    expect(configurator).toMatchObject({ cadType: 'replicad', cadVersion: '1.1', mainFile: 'main.js' })
  })

  // Seven B-rep builds and their parts, one after another: about 25 s while the rest of the suite runs.
  it('gives sessions its parameters, models, object info, log and presets', { timeout: 60_000 }, async () => {
    const { session, token } = await openSession(BRACKET, REPLICAD, { 'configurator/main.json': PRESETS })
    const params = { sessionId: session.id }
    const parameters = await callJson('getParameters', { params, token })
    expect(parameters.width).toMatchObject({ type: 'float', value: 60, min: 30, max: 160, group: 'Size' })
    expect(parameters.holeDiameter).toMatchObject({ type: 'choice', value: 4.5 })

    const set = await call('setParameters', { params, token, body: { width: { value: 100 }, holes: { value: 4 } } })
    expect(set.status).toBe(200)
    const info = await callJson('getObjectInfo', { params, token })
    expect(info.boundingBox).toMatchObject({ minX: 0, maxX: 40, minY: 0, maxY: 100, minZ: 0, maxZ: 40 })
    const exact = (40 * 5 + 35 * 5 + (1 - Math.PI / 4) * 9) * 100 - 2 * 4 * Math.PI * 2.25 ** 2 * 5
    expect(info.volume / exact).toBeCloseTo(1, 2)
    expect(info.print.parts.map((part) => part.name)).toEqual(['Bracket'])

    const model = await call('getModel', { params, token, query: { type: '3mf' } })
    expect(model.status).toBe(200)
    const files = unzipSync(new Uint8Array(await model.arrayBuffer()))
    expect(new TextDecoder().decode(files['Metadata/Slic3r_PE_model.config'])).toContain('value="Bracket"')

    expect((await callJson('listPresets', { params, token })).map((preset) => preset.name)).toEqual([
      'Shelf, M5',
      'Small, M3',
    ])
    expect((await call('applyPreset', { params: { ...params, name: 'Small, M3' }, token })).status).toBe(200)
    expect((await callJson('getParameters', { params, token })).width?.value).toBe(30)
    expect((await callJson('getLog', { params, token })).error).toBe('')
  })

  it('puts what a model prints in the log, and an error it throws on its line; the model is then 409', async () => {
    const code = [
      'const defaultParams = { width: 40 }',
      'function main({ makeBaseBox }, { width }) {',
      '  console.log("width is", width)',
      '  if (width > 50) throw new Error("A bracket this wide needs a third leg")',
      '  return makeBaseBox(width, 10, 10)',
      '}',
    ].join('\n')
    const { session, token } = await openSession(code, REPLICAD)
    const params = { sessionId: session.id }
    expect((await callJson('getLog', { params, token })).message).toBe('width is 40')
    await call('setParameters', { params, token, body: { width: { value: 60 } } })
    const log = await callJson('getLog', { params, token })
    expect(log.error).toMatch(/^ERROR: Error: A bracket this wide needs a third leg \(main\.js:4:\d+\)$/)
    await expectError(await call('getModel', { params, token }), 409, 'conflict', /did not build/)
  })

  it('stops a model that never returns at its time limit, and the next build of another model works', async () => {
    const endless = await openSession('function main() {\n  for (;;) {}\n}\n', {
      ...REPLICAD,
      extraSettings: { limits: { buildSeconds: 2 } },
    })
    const params = { sessionId: endless.session.id }
    await expectError(await call('getModel', { params, token: endless.token }), 409, 'conflict', /did not build/)
    expect((await callJson('getLog', { params, token: endless.token })).error).toMatch(/time limit of 2 s/)
    const { session, token } = await openSession(BRACKET, REPLICAD)
    expect((await call('getModel', { params: { sessionId: session.id }, token })).status).toBe(200)
  })

  it('builds no model whose parameters contradict themselves: 409, and the log names the parameter and its line', async () => {
    const code = [
      'const defaultParams = { width: 10 }',
      "const parameters = [{ name: 'width', min: 1, step: 0 }]",
      'function main({ makeBaseBox }, { width }) {',
      '  return makeBaseBox(width, 10, 10)',
      '}',
    ].join('\n')
    const { session, token } = await openSession(code, REPLICAD)
    const params = { sessionId: session.id }
    expect(await callJson('getParameters', { params, token })).toEqual({})
    await expectError(await call('getModel', { params, token }), 409, 'conflict', /did not build/)
    expect((await callJson('getLog', { params, token })).error).toBe(
      'ERROR: parameter width: its step 0 must be above 0 (main.js:2)',
    )
  })
})

/** The STEP read by an independent reader (occt-import-js, OpenCascade's STEP reader built apart): each solid's name and volume. */
async function readStep(bytes: Uint8Array): Promise<{ name: string; volume: number }[]> {
  const occt = await (await import('occt-import-js')).default()
  const result = occt.ReadStepFile(bytes, {
    linearUnit: 'millimeter',
    linearDeflectionType: 'absolute_value',
    linearDeflection: 0.002,
    angularDeflection: 0.02,
  })
  expect(result.success).toBe(true)
  return result.meshes.map((mesh) => {
    const p = mesh.attributes.position.array
    const index = mesh.index.array
    let volume = 0
    for (let t = 0; t < index.length; t += 3) {
      const [a, b, c] = [index[t]! * 3, index[t + 1]! * 3, index[t + 2]! * 3]
      volume +=
        (p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!) -
          p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!) +
          p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!)) /
        6
    }
    return { name: mesh.name, volume: Math.abs(volume) }
  })
}

describe('STEP of a replicad model', () => {
  it('is what an independent reader reads back: the same solids, names and volume', async () => {
    const { session, token } = await openSession(BRACKET, REPLICAD)
    const params = { sessionId: session.id }
    await call('setParameters', { params, token, body: { holes: { value: 3 }, fillet: { value: 6 } } })
    const exact = (40 * 5 + 35 * 5 + (1 - Math.PI / 4) * 36) * 60 - 2 * 3 * Math.PI * 2.25 ** 2 * 5
    for (const operation of ['getModel', 'getFinalizedModel'] as const) {
      const response = await call(operation, { params, token, query: { type: 'step' } })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('model/step')
      const text = await response.text()
      expect(text).toMatch(/^ISO-10303-21;/)
      expect(text).toMatch(/SI_UNIT\(\.MILLI\.,\.METRE\.\)/)
      const solids = await readStep(new TextEncoder().encode(text))
      expect(solids.map((solid) => solid.name)).toEqual(['Bracket'])
      expect(Math.abs(solids[0]!.volume / exact - 1)).toBeLessThan(0.001)
    }
  })

  it('is served by a snapshot, which freezes the engine that built it', async () => {
    const { session, token } = await openSession(BRACKET, REPLICAD)
    const snapshot = await callJson('createSnapshot', { params: { sessionId: session.id }, token })
    expect(snapshot.engine).toEqual({
      cadType: 'replicad',
      cadVersion: '1.1',
      build: expect.stringMatching(/^replicad 1\.1\.\d+, replicad-opencascadejs 1\.1\.\d+$/) as string,
    })
    const params = { snapshotId: snapshot.id }
    const step = await call('getSnapshotFinalizedModel', { params, token, query: { type: 'step' } })
    expect(step.status).toBe(200)
    const [solid] = await readStep(new Uint8Array(await step.arrayBuffer()))
    expect(solid!.name).toBe('Bracket')
  })

  it('holds one named solid per part', async () => {
    const code = `function main({ makeBaseBox, makeCylinder }) {
      return [
        { shape: makeBaseBox(30, 30, 10), name: 'Base', color: 'steelblue' },
        { shape: makeCylinder(5, 20, [0, 0, 10]), name: 'Peg', color: 'orange' },
      ]
    }`
    const { session, token } = await openSession(code, REPLICAD)
    const response = await call('getModel', { params: { sessionId: session.id }, token, query: { type: 'step' } })
    expect(response.status, await response.clone().text()).toBe(200)
    const solids = await readStep(new Uint8Array(await response.arrayBuffer()))
    expect(solids.map((solid) => solid.name)).toEqual(['Base', 'Peg'])
    expect(solids[0]!.volume / (30 * 30 * 10)).toBeCloseTo(1, 3)
    expect(solids[1]!.volume / (Math.PI * 25 * 20)).toBeCloseTo(1, 3)
  })

  it('is 422 naming type for a model whose CAD system writes none', async () => {
    const { session, token } = await openSession('cube(10);')
    const params = { sessionId: session.id }
    const error = await expectError(
      await call('getModel', { params, token, query: { type: 'step' } }),
      422,
      'unprocessable_entity',
      /type: a 3D OpenSCAD model is one of stl, 3mf, glb, usdz, off/,
    )
    expect(error.fields?.map((field) => field.path)).toEqual([['type']])
  })
})
