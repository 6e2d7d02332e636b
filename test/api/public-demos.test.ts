import { afterEach, describe, expect, it } from 'vitest'
import { listPublicDemos, findEmbedApplication } from '@/lib/applications/applications'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import { api } from '@/test/support/api-client'
import { createConfigurator, expectError, registerApplication, signUp } from '@/test/support/fixtures'

const defaults = { ...env }
afterEach(() => void Object.assign(env, defaults))

/** A configurator with two applications: a public demo for localhost, and a shop's. */
async function demoAndShop() {
  const owner = await signUp()
  const configuratorId = await createConfigurator(owner.token, { name: 'Demo tag', description: 'A tag to try' })
  const demo = await registerApplication(owner.token, configuratorId, { name: 'Tag demo shop', domain: 'localhost' })
  await db.application.update({ where: { id: demo.UUID }, data: { publicDemo: true } })
  const shop = await registerApplication(owner.token, configuratorId)
  return { demo, shop }
}

/** The token call the customer page served by this server at `host` makes. */
const tokenFromPage = (key: string, host: string, origin = `https://${host}`) =>
  api('POST', '/auth/anonymous', { headers: { 'x-api-key': key, origin, host } })

describe('public demos', () => {
  it('are listed for visitors, and their customer page gets tokens on the server’s public origin, not on others', async () => {
    const { demo, shop } = await demoAndShop()
    const listed = await listPublicDemos()
    expect(listed).toContainEqual({ key: demo.key, configurator: { name: 'Demo tag', description: 'A tag to try' } })
    expect(listed.map((entry) => entry.key)).not.toContain(shop.key)

    expect((await tokenFromPage(demo.key, 'paraform.example.org')).status).toBe(200)
    expect((await tokenFromPage(demo.key, 'paraform.example.org:8443')).status).toBe(200)
    // The embed page of any application calls from this server's origin, wherever the shop frames it.
    expect((await tokenFromPage(shop.key, 'paraform.example.org')).status).toBe(200)
    await expectError(
      await tokenFromPage(demo.key, 'paraform.example.org', 'https://elsewhere.example.net'),
      403,
      'forbidden',
      /Origin https:\/\/elsewhere\.example\.net is not the application's domain/,
    )
  })

  it('switched off with PUBLIC_DEMOS=false: not listed, no customer page, tokens refused naming the setting; shops unaffected', async () => {
    const { demo, shop } = await demoAndShop()
    Object.assign(env, { PUBLIC_DEMOS: false })
    expect(await listPublicDemos()).toEqual([])
    expect(await findEmbedApplication(demo.key)).toBeNull()
    expect(await findEmbedApplication(shop.key)).not.toBeNull()
    await expectError(await tokenFromPage(demo.key, 'localhost:3000'), 403, 'forbidden', /PUBLIC_DEMOS=false/)
    expect((await tokenFromPage(shop.key, 'localhost:3000')).status).toBe(200)
  })

  it('hold visitors to the anonymous token limits of any customer', async () => {
    const { demo } = await demoAndShop()
    Object.assign(env, { ANONYMOUS_TOKENS_PER_MINUTE_PER_ADDRESS: 2 })
    const fromVisitor = () =>
      api('POST', '/auth/anonymous', {
        headers: { 'x-api-key': demo.key, origin: 'http://localhost:3000', 'x-paraform-client-address': '192.0.2.45' },
      })
    expect((await fromVisitor()).status).toBe(200)
    expect((await fromVisitor()).status).toBe(200)
    await expectError(await fromVisitor(), 429, 'too_many_requests')
  })
})
