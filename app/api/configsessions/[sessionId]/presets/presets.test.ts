import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import * as configurators from '@/lib/configurators/operations'
import * as sessions from '@/lib/sessions/operations'
import { api, readBody } from '@/test/support/api-client'
import { expectError, openSession } from '@/test/support/fixtures'

// test/corpus/presets: a model and its parameter set file as OpenSCAD's Customizer saves it.
const CORPUS = path.join(import.meta.dirname, '../../../../../test/corpus/presets')
const read = (name: string) => fs.readFileSync(path.join(CORPUS, name), 'utf8')
const DEFAULTS = {
  width: 30,
  depth: 20,
  thickness: 3,
  holes: [6, 12, 6, 12],
  countersunk: true,
  finish: 'matt',
  label: 'Shelf',
}

async function openBracket(files: Record<string, string> = { 'configurator/bracket.json': read('bracket.json') }) {
  // openSession's own main.scad stays empty: the model is bracket.scad, its presets bracket.json.
  return openSession('', { mainFile: 'bracket.scad' }, { 'configurator/bracket.scad': read('bracket.scad'), ...files })
}

type Opened = Awaited<ReturnType<typeof openBracket>>

const valuesOf = (parameters: Record<string, { value: unknown }>) =>
  Object.fromEntries(Object.entries(parameters).map(([key, { value }]) => [key, value]))

async function apply({ session, token }: Opened, name: string) {
  return api('POST', `/configsessions/${session.id}/presets/${encodeURIComponent(name)}`, { token })
}

async function logOf({ session, token }: Opened) {
  return readBody(await api('GET', `/configsessions/${session.id}/log`, { token }), sessions.getLog)
}

async function volumeOf({ session, token }: Opened) {
  return (
    await readBody(await api('GET', `/configsessions/${session.id}/objectinfo`, { token }), sessions.getObjectInfo)
  ).volume
}

describe('presets', () => {
  it('lists the sets of the file beside the main file with the values they give', async () => {
    const opened = await openBracket()
    const presets = await readBody(
      await api('GET', `/configsessions/${opened.session.id}/presets`, { token: opened.token }),
      sessions.listPresets,
    )
    expect(presets).toEqual([
      { name: 'Large', values: { width: 38, countersunk: false, holes: [12, 4, 30, 23] } },
      { name: 'v1.2 heavy duty', values: { width: 100, thickness: 6.5, label: 'Heavy du' } },
    ])
  })

  it('apply as OpenSCAD applies them: unnamed parameters back to their defaults, strings read by kind, numbers clamped', async () => {
    const opened = await openBracket()
    expect(
      (
        await api('PUT', `/configsessions/${opened.session.id}/parameters`, {
          token: opened.token,
          body: { depth: { value: 50 } },
        })
      ).status,
    ).toBe(200)
    const applied = await readBody(await apply(opened, 'Large'), sessions.applyPreset)
    expect(valuesOf(applied)).toEqual({ ...DEFAULTS, width: 38, countersunk: false, holes: [12, 4, 30, 23] })
    expect(await volumeOf(opened)).toBeCloseTo(38 * 20 * 3, 3)
    expect((await logOf(opened)).error).toBe(
      'WARNING: preset "Large": holes = "[12, 4, 45, 23]" is outside the parameter\'s range; [12, 4, 30, 23] is used',
    )
  })

  it('keep the default for what does not fit, ignore keys that are no parameter, and say so in the log', async () => {
    const opened = await openBracket()
    const applied = await readBody(await apply(opened, 'v1.2 heavy duty'), sessions.applyPreset)
    expect(valuesOf(applied)).toEqual({ ...DEFAULTS, width: 100, thickness: 6.5, label: 'Heavy du' })
    expect(await volumeOf(opened)).toBeCloseTo(100 * 20 * 6.5, 3)
    expect((await logOf(opened)).error.split('\n')).toEqual([
      'WARNING: preset "v1.2 heavy duty": width = "250" is outside the parameter\'s range; 100 is used',
      'WARNING: preset "v1.2 heavy duty": finish = "satin" does not fit the parameter; its default matt is used',
      'WARNING: preset "v1.2 heavy duty": label = "Heavy duty shelf" is longer than 8 characters; Heavy du is used',
      'WARNING: preset "v1.2 heavy duty": colour is not a parameter of this model; ignored',
      'WARNING: preset "v1.2 heavy duty": depth = "deep" does not fit the parameter; its default 20 is used',
    ])

    // The next change of values is a configuration of its own: the preset's warnings leave the log.
    expect(
      (
        await api('PUT', `/configsessions/${opened.session.id}/parameters`, {
          token: opened.token,
          body: { depth: { value: 30 } },
        })
      ).status,
    ).toBe(200)
    expect((await logOf(opened)).error).toBe('')
  })

  it('answer 404 for a name the file does not have, an empty list without a file, and 422 for a broken file', async () => {
    const opened = await openBracket()
    await expectError(await apply(opened, 'Huge'), 404, 'not_found', /no preset "Huge"/)
    await expectError(await apply(opened, 'constructor'), 404, 'not_found')

    const bare = await openBracket({})
    expect(
      await readBody(
        await api('GET', `/configsessions/${bare.session.id}/presets`, { token: bare.token }),
        sessions.listPresets,
      ),
    ).toEqual([])

    const broken = await openBracket({
      'configurator/bracket.json': '{"parameterSets": {"Large": {"width": {"nested": 1}}}}',
    })
    await expectError(
      await api('GET', `/configsessions/${broken.session.id}/presets`, { token: broken.token }),
      422,
      'unprocessable_entity',
      /configurator\/bracket\.json is not an OpenSCAD parameter set file/,
    )
  })

  it('are saved by the designer into the same file, which stays in OpenSCAD format', async () => {
    const opened = await openBracket()
    const { configuratorId, token } = opened
    const saved = await api('PUT', `/configurators/${configuratorId}/presets/${encodeURIComponent('Small. Narrow')}`, {
      token,
      body: { width: { value: 12 }, holes: { value: [1, 2, 3, 4] } },
    })
    expect(await readBody(saved, configurators.savePreset)).toEqual({
      name: 'Small. Narrow',
      values: { ...DEFAULTS, width: 12, holes: [1, 2, 3, 4] },
    })

    const file = JSON.parse(
      await (await api('GET', `/configurators/${configuratorId}/files/configurator/bracket.json`, { token })).text(),
    ) as Record<string, unknown>
    expect(file).toEqual({
      ...JSON.parse(read('bracket.json')),
      parameterSets: {
        ...JSON.parse(read('bracket.json')).parameterSets,
        'Small. Narrow': {
          width: '12',
          depth: '20',
          thickness: '3',
          holes: '[1, 2, 3, 4]',
          countersunk: 'true',
          finish: 'matt',
          label: 'Shelf',
        },
      },
    })
    expect(valuesOf(await readBody(await apply(opened, 'Small. Narrow'), sessions.applyPreset))).toEqual({
      ...DEFAULTS,
      width: 12,
      holes: [1, 2, 3, 4],
    })

    await expectError(
      await api('PUT', `/configurators/${configuratorId}/presets/Bad`, { token, body: { width: { value: 500 } } }),
      422,
      'unprocessable_entity',
      /width: must be at most 100/,
    )
  })
})
