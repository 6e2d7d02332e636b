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
    expect(replicad).toEqual({ type: 'replicad', versions: ['1.1'], default: '1.1' })
    const configurator = await callJson('getConfigurator', { params: { configuratorId }, token: owner.token })
    expect(configurator).toMatchObject({ cadType: 'replicad', cadVersion: '1.1', mainFile: 'main.js' })
  })

  it('gives sessions its parameters, models, object info, log and presets', async () => {
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
