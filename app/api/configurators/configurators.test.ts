import { describe, expect, it } from 'vitest'
import * as operations from '@/lib/configurators/operations'
import { api, readBody } from '@/test/support/api-client'
import { createConfigurator, expectError, signUp } from '@/test/support/fixtures'

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

describe('configurators', () => {
  it('creates, reads, lists, updates and deletes a configurator', async () => {
    const owner = await signUp()
    const id = await createConfigurator(owner.token, { description: 'A box with a lid' })

    const details = await api('GET', `/configurators/${id}`, { token: owner.token })
    expect(details.status).toBe(200)
    const configurator = await details.json()
    expect(configurator).toEqual({
      UUID: id,
      name: 'Box',
      userUUID: owner.UUID,
      description: 'A box with a lid',
      mainFile: 'main.scad',
      cadType: 'openscad',
      cadVersion: '2025.07',
      rendererType: 'webgl',
      rendererVersion: expect.stringMatching(/^r\d+$/),
      extraSettings: {},
      createdAt: expect.stringMatching(DATE_TIME),
      updatedAt: expect.stringMatching(DATE_TIME),
    })

    const update = await api('PUT', `/configurators/${id}`, {
      token: owner.token,
      body: { name: 'Lidded box', rendererType: 'headless', extraSettings: { quality: { preview: { $fn: 24 } } } },
    })
    expect(update.status).toBe(200)
    expect(await update.json()).toEqual({ UUID: id })
    const updated = await (await api('GET', `/configurators/${id}`, { token: owner.token })).json()
    expect(updated).toMatchObject({
      name: 'Lidded box',
      description: 'A box with a lid',
      rendererType: 'headless',
      extraSettings: { quality: { preview: { $fn: 24 } } },
    })

    const list = await api('GET', '/configurators', { token: owner.token })
    expect((await list.json()).map((item: { UUID: string }) => item.UUID)).toEqual([id])

    expect((await api('DELETE', `/configurators/${id}`, { token: owner.token })).status).toBe(204)
    await expectError(await api('GET', `/configurators/${id}`, { token: owner.token }), 404, 'not_found')
  })

  it('hides a configurator from everyone but its owner', async () => {
    const owner = await signUp()
    const stranger = await signUp()
    const id = await createConfigurator(owner.token)
    await expectError(await api('GET', `/configurators/${id}`, { token: stranger.token }), 404, 'not_found')
    await expectError(
      await api('PUT', `/configurators/${id}`, { token: stranger.token, body: { name: 'x' } }),
      404,
      'not_found',
    )
    await expectError(await api('DELETE', `/configurators/${id}`, { token: stranger.token }), 404, 'not_found')
    const list = await api('GET', '/configurators', { token: stranger.token })
    expect(await list.json()).toEqual([])
    expect((await api('GET', `/configurators/${id}`, { token: owner.token })).status).toBe(200)
  })

  it.each([
    ['missing name', { mainFile: 'main.scad' }, ['name']],
    ['missing mainFile', { name: 'Box' }, ['mainFile']],
    ['blank name', { name: '  ', mainFile: 'main.scad' }, ['name']],
    ['mainFile escaping the directory', { name: 'Box', mainFile: '../main.scad' }, ['mainFile']],
    ['unknown cadType', { name: 'Box', mainFile: 'main.scad', cadType: 'solidworks' }, ['cadType']],
    ['unknown cadVersion', { name: 'Box', mainFile: 'main.scad', cadVersion: '2019.05' }, ['cadVersion']],
    ['unknown rendererType', { name: 'Box', mainFile: 'main.scad', rendererType: 'raytracer' }, ['rendererType']],
    ['extraSettings not an object', { name: 'Box', mainFile: 'main.scad', extraSettings: [1] }, ['extraSettings']],
    [
      'a negative build limit',
      { name: 'Box', mainFile: 'main.scad', extraSettings: { limits: { buildSeconds: -1 } } },
      ['extraSettings', 'limits', 'buildSeconds'],
    ],
  ])('refuses to create with %s (422 naming the field)', async (_case, body, path) => {
    const owner = await signUp()
    const error = await expectError(
      await api('POST', '/configurators', { token: owner.token, body }),
      422,
      'unprocessable_entity',
      new RegExp(`^${path.join('\\.')}: `),
    )
    expect(error.fields?.map((field) => field.path)).toEqual([path])
    expect(await (await api('GET', '/configurators', { token: owner.token })).json()).toEqual([])
  })

  it('reads an empty cadVersion or rendererVersion as not sent: the defaults on create, unchanged on update', async () => {
    const owner = await signUp()
    const created = await api('POST', '/configurators', {
      token: owner.token,
      body: {
        name: 'Box',
        description: '',
        mainFile: 'main.scad',
        cadType: 'openscad',
        cadVersion: '',
        rendererType: 'webgl',
        rendererVersion: '',
        extraSettings: {},
      },
    })
    const { UUID: id } = await readBody(created, operations.createConfigurator)
    const details = async () =>
      readBody(await api('GET', `/configurators/${id}`, { token: owner.token }), operations.getConfigurator)
    const defaults = await details()
    expect(defaults).toMatchObject({ cadVersion: '2025.07', rendererVersion: expect.stringMatching(/^r\d+$/) })
    const updated = await api('PUT', `/configurators/${id}`, {
      token: owner.token,
      body: { name: 'Lidded box', cadVersion: '', rendererVersion: '' },
    })
    expect(updated.status).toBe(200)
    expect(await details()).toMatchObject({
      name: 'Lidded box',
      cadVersion: defaults.cadVersion,
      rendererVersion: defaults.rendererVersion,
    })
  })

  it('leaves a configurator unchanged when an update is invalid', async () => {
    const owner = await signUp()
    const id = await createConfigurator(owner.token)
    const response = await api('PUT', `/configurators/${id}`, {
      token: owner.token,
      body: { name: 'New', extraSettings: 'x' },
    })
    await expectError(response, 422, 'unprocessable_entity', /extraSettings/)
    expect((await (await api('GET', `/configurators/${id}`, { token: owner.token })).json()).name).toBe('Box')
  })
})
