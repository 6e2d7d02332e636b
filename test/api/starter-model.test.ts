import { describe, expect, it } from 'vitest'
import { openscadSystem } from '@/lib/cad/openscad/cad-system'
import { replicadSystem } from '@/lib/cad/replicad/cad-system'
import { call, callJson } from '@/test/support/api-client'
import { openSession } from '@/test/support/fixtures'

describe('the starter model a new configurator gets in the studio', () => {
  it('builds on the real engine, with labelled controls in groups and a preset that applies', async () => {
    const files = Object.fromEntries(openscadSystem.starterFiles('main.scad').map(({ path, text }) => [path, text]))
    expect(Object.keys(files)).toEqual(['configurator/main.scad', 'configurator/main.json'])
    const { 'configurator/main.scad': source, ...rest } = files
    const { session, token } = await openSession(source!, {}, rest)
    const params = { sessionId: session.id }

    const parameters = await callJson('getParameters', { params, token })
    expect(Object.keys(parameters)).toEqual(['width', 'depth', 'height', 'wall', 'rounded'])
    expect(new Set(Object.values(parameters).map((parameter) => parameter.group))).toEqual(new Set(['Size', 'Style']))
    expect(parameters.width).toMatchObject({ type: 'float', caption: 'Outside width (mm)', min: 20, max: 200 })
    expect((await callJson('getLog', { params, token })).error).toBe('')
    expect((await callJson('getObjectInfo', { params, token })).boundingBox).toBeDefined()

    expect((await callJson('listPresets', { params, token })).map((preset) => preset.name)).toEqual(['Small tray'])
    const applied = await call('applyPreset', { params: { ...params, name: 'Small tray' }, token })
    expect(applied.status).toBe(200)
    expect((await callJson('getParameters', { params, token })).width?.value).toBe(40)
    expect((await callJson('getLog', { params, token })).error).toBe('')
  })

  it('keeps its presets beside a main file of any name', () => {
    expect(openscadSystem.starterFiles('parts/Box.SCAD').map(({ path }) => path)).toEqual([
      'configurator/parts/Box.SCAD',
      'configurator/parts/Box.json',
    ])
  })
})

describe('the replicad starter model', () => {
  it('builds on the real engine, with labelled controls in groups and a preset that applies', async () => {
    const files = Object.fromEntries(replicadSystem.starterFiles('main.js').map(({ path, text }) => [path, text]))
    expect(Object.keys(files)).toEqual(['configurator/main.js', 'configurator/main.json'])
    const { 'configurator/main.js': source, ...rest } = files
    const { session, token } = await openSession(source!, { cadType: 'replicad', mainFile: 'main.js' }, rest)
    const params = { sessionId: session.id }
    const parameters = await callJson('getParameters', { params, token })
    expect(Object.keys(parameters)).toEqual(['width', 'depth', 'height', 'fillet', 'finish'])
    expect(parameters.width).toMatchObject({ type: 'float', caption: 'Outside width (mm)', group: 'Size', min: 20 })
    expect((await callJson('getObjectInfo', { params, token })).print.parts.map((part) => part.name)).toEqual(['Block'])
    expect((await call('applyPreset', { params: { ...params, name: 'Small block' }, token })).status).toBe(200)
    expect((await callJson('getParameters', { params, token })).width?.value).toBe(40)
    expect((await callJson('getLog', { params, token })).error).toBe('')
  })
})
