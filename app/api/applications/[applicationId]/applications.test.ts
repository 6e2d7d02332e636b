import { describe, expect, it } from 'vitest'
import { api } from '@/test/support/api-client'
import { createConfigurator, expectError, signUp } from '@/test/support/fixtures'

describe('applications', () => {
  it('registers (200 {UUID}), shows all fields to the owner, lists without secrets and deletes', async () => {
    const owner = await signUp()
    const configuratorId = await createConfigurator(owner.token)
    const registered = await api('POST', `/configurators/${configuratorId}/applications`, {
      token: owner.token,
      body: {
        name: 'Web shop',
        licenseUUID: 'lic-1',
        domain: 'Shop.Example.com',
        secureInit: true,
        secureModel: false,
      },
    })
    expect(registered.status).toBe(200)
    const { UUID } = await registered.json()

    const details = await (await api('GET', `/applications/${UUID}`, { token: owner.token })).json()
    expect(details).toEqual({
      UUID,
      name: 'Web shop',
      licenseUUID: 'lic-1',
      configuratorUUID: configuratorId,
      domain: 'shop.example.com',
      key: expect.stringMatching(/^pk_/),
      secretKey: expect.stringMatching(/^sk_/),
      secureInit: true,
      secureModel: false,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    })

    const list = await (
      await api('GET', `/configurators/${configuratorId}/applications`, { token: owner.token })
    ).json()
    const { secretKey: _secretKey, ...summary } = details
    expect(list).toEqual([summary])

    expect((await api('DELETE', `/applications/${UUID}`, { token: owner.token })).status).toBe(204)
    await expectError(await api('GET', `/applications/${UUID}`, { token: owner.token }), 404, 'not_found')
    expect(
      await (await api('GET', `/configurators/${configuratorId}/applications`, { token: owner.token })).json(),
    ).toEqual([])
  })

  it('defaults licenseUUID, secureInit and secureModel', async () => {
    const owner = await signUp()
    const configuratorId = await createConfigurator(owner.token)
    const { UUID } = await (
      await api('POST', `/configurators/${configuratorId}/applications`, {
        token: owner.token,
        body: { name: 'Shop', domain: 'localhost:8080' },
      })
    ).json()
    const details = await (await api('GET', `/applications/${UUID}`, { token: owner.token })).json()
    expect(details).toMatchObject({ licenseUUID: '', domain: 'localhost:8080', secureInit: false, secureModel: false })
  })

  it("keeps applications from everyone but the configurator's owner", async () => {
    const owner = await signUp()
    const stranger = await signUp()
    const configuratorId = await createConfigurator(owner.token)
    const { UUID } = await (
      await api('POST', `/configurators/${configuratorId}/applications`, {
        token: owner.token,
        body: { name: 'Shop', domain: 'shop.example.com' },
      })
    ).json()
    await expectError(await api('GET', `/applications/${UUID}`, { token: stranger.token }), 404, 'not_found')
    await expectError(await api('DELETE', `/applications/${UUID}`, { token: stranger.token }), 404, 'not_found')
    await expectError(
      await api('GET', `/configurators/${configuratorId}/applications`, { token: stranger.token }),
      404,
      'not_found',
    )
    const register = await api('POST', `/configurators/${configuratorId}/applications`, {
      token: stranger.token,
      body: { name: 'Mine now', domain: 'evil.example.com' },
    })
    await expectError(register, 404, 'not_found')
  })

  it.each([
    ['missing name', { domain: 'shop.example.com' }, /name/],
    ['missing domain', { name: 'Shop' }, /domain/],
    ['a URL instead of a domain', { name: 'Shop', domain: 'https://shop.example.com/' }, /domain/],
    ['a non-boolean secureInit', { name: 'Shop', domain: 'shop.example.com', secureInit: 'yes' }, /secureInit/],
    ['a non-boolean secureModel', { name: 'Shop', domain: 'shop.example.com', secureModel: 1 }, /secureModel/],
  ])('refuses %s with 422 and registers nothing', async (_case, body, field) => {
    const owner = await signUp()
    const configuratorId = await createConfigurator(owner.token)
    const response = await api('POST', `/configurators/${configuratorId}/applications`, { token: owner.token, body })
    await expectError(response, 422, 'unprocessable_entity', field)
    expect(
      await (await api('GET', `/configurators/${configuratorId}/applications`, { token: owner.token })).json(),
    ).toEqual([])
  })
})
