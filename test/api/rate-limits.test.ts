import { afterEach, describe, expect, it } from 'vitest'
import { limits } from '@/lib/api/rate-limit'
import { db } from '@/lib/db'
import { env, type Env } from '@/lib/env'
import { api, uniqueEmail } from '@/test/support/api-client'
import { createConfigurator, expectError, PASSWORD, registerApplication, signUp } from '@/test/support/fixtures'

// Small limits for this file only: the limiters read their settings at every call.
const defaults = { ...env }
function useSettings(settings: Partial<Env>) {
  Object.assign(env, settings)
}
afterEach(() => void Object.assign(env, defaults))

let addressCount = 0
/** A client address of its own, as server.ts would pass it on. */
const newAddress = () => `192.0.2.${++addressCount}`

const signIn = (path: '/auth/login' | '/auth/session', email: string, password: string, address: string) =>
  api('POST', path, {
    body: { email, password },
    headers: { 'x-paraform-client-address': address, 'sec-fetch-site': 'same-origin' },
  })

/** A 429 whose Retry-After is the block time (less the seconds this test has run since it began). */
async function expectTooMany(response: Response, blockSeconds: number) {
  const retryAfter = Number(response.headers.get('retry-after'))
  expect(retryAfter).toBeLessThanOrEqual(blockSeconds)
  expect(retryAfter).toBeGreaterThan(blockSeconds / 2)
  await expectError(response, 429, 'too_many_requests')
}

/** Lets a running block of `key` end, as if its time had passed. */
async function endBlock(prefix: string, key: string) {
  await db.rateLimit.updateMany({ where: { key: `${prefix}-gate:${key}` }, data: { expire: new Date(0) } })
}

describe.each(['/auth/login', '/auth/session'] as const)('failed sign-ins on POST %s', (path) => {
  it('blocks an account after 3 failures, doubling the block with each further failure up to the maximum; a success resets it', async () => {
    useSettings({ LOGIN_FAILURES_PER_ACCOUNT: 3, LOGIN_BLOCK_SECONDS: 30, LOGIN_BLOCK_MAX_SECONDS: 100 })
    const { email } = await signUp()
    const address = newAddress()
    for (let i = 0; i < 3; i++)
      await expectError(await signIn(path, email, 'wrong password', address), 401, 'unauthorized')
    await expectTooMany(await signIn(path, email, 'wrong password', address), 30)
    // The right password is refused while blocked, from any address.
    await expectTooMany(await signIn(path, email, PASSWORD, address), 30)
    await expectTooMany(await signIn(path, email, PASSWORD, newAddress()), 30)
    // Another account from the same address is unaffected.
    expect((await signIn(path, (await signUp()).email, PASSWORD, address)).status).toBe(200)

    for (const block of [60, 100]) {
      await endBlock('login-account', email)
      await expectError(await signIn(path, email, 'wrong password', address), 401, 'unauthorized')
      await expectTooMany(await signIn(path, email, 'wrong password', address), block)
    }
    await endBlock('login-account', email)
    expect((await signIn(path, email, PASSWORD, address)).status).toBe(200)
    for (let i = 0; i < 3; i++)
      await expectError(await signIn(path, email, 'wrong password', address), 401, 'unauthorized')
    await expectTooMany(await signIn(path, email, PASSWORD, address), 30)
  }, 120_000)

  it('blocks an address after 3 failures on any accounts, unknown ones included; other addresses are unaffected', async () => {
    useSettings({ LOGIN_FAILURES_PER_ADDRESS: 3, LOGIN_BLOCK_SECONDS: 30 })
    const address = newAddress()
    const { email } = await signUp()
    expect((await signIn(path, email, PASSWORD, address)).status).toBe(200)
    for (const account of [email, uniqueEmail(), uniqueEmail()]) {
      await expectError(await signIn(path, account, 'wrong password', address), 401, 'unauthorized')
    }
    await expectTooMany(await signIn(path, uniqueEmail(), 'wrong password', address), 30)
    await expectTooMany(await signIn(path, email, PASSWORD, address), 30)
    expect((await signIn(path, email, PASSWORD, newAddress())).status).toBe(200)
  })
})

it('lets parallel guesses at a blocked-then-released account through one at a time', async () => {
  useSettings({ LOGIN_FAILURES_PER_ACCOUNT: 3, LOGIN_BLOCK_SECONDS: 30 })
  const { email } = await signUp()
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => signIn('/auth/login', email, 'wrong password', newAddress())),
  )
  const statuses = answers.map((response) => response.status)
  // Three free failures, then at most one attempt at a time: the others are refused untried.
  expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(4)
  expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(6)
  await endBlock('login-account', email)
  const released = await Promise.all(
    Array.from({ length: 5 }, () => signIn('/auth/login', email, 'wrong password', newAddress())),
  )
  expect(released.map((response) => response.status).sort()).toEqual([401, 429, 429, 429, 429])
})

describe('POST /auth/anonymous', () => {
  async function application() {
    const owner = await signUp()
    return registerApplication(owner.token, await createConfigurator(owner.token))
  }
  const mint = (key: string, address: string, token?: string) =>
    api('POST', '/auth/anonymous', { token, headers: { 'x-api-key': key, 'x-paraform-client-address': address } })

  it('gives at most the limit of tokens a minute per application key, renewals included', async () => {
    useSettings({ ANONYMOUS_TOKENS_PER_MINUTE_PER_KEY: 3 })
    const shop = await application()
    const first = await mint(shop.key, newAddress())
    expect(first.status).toBe(200)
    const { accessToken } = (await first.json()) as { accessToken: string }
    expect((await mint(shop.key, newAddress())).status).toBe(200)
    expect((await mint(shop.key, newAddress(), accessToken)).status).toBe(200)
    const refused = await mint(shop.key, newAddress(), accessToken)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60)
    await expectError(refused, 429, 'too_many_requests', /application/)
    expect((await mint((await application()).key, newAddress())).status).toBe(200)
  })

  it('gives at most the limit of tokens a minute per client address, over all keys', async () => {
    useSettings({ ANONYMOUS_TOKENS_PER_MINUTE_PER_ADDRESS: 3 })
    const [shop, otherShop] = [await application(), await application()]
    const address = newAddress()
    for (let i = 0; i < 3; i++) expect((await mint(shop.key, address)).status).toBe(200)
    await expectError(await mint(otherShop.key, address), 429, 'too_many_requests', /address/)
    expect((await mint(otherShop.key, newAddress())).status).toBe(200)
  })
})

describe("a customer's build time", () => {
  it('is stored at most once a second when added after each answer, and counted by this process meanwhile', async () => {
    useSettings({ CUSTOMER_BUILD_SECONDS: 1 })
    const customer = `customer-${crypto.randomUUID()}`
    const storedPoints = async () =>
      (await db.rateLimit.findUnique({ where: { key: `customer-build-ms:${customer}` } }))?.points ?? 0
    for (const ms of [400, 300, 200]) limits.customerBuildTime.addAfterAnswer(customer, ms)
    expect(await storedPoints()).toBe(0)
    await limits.customerBuildTime.check(customer)
    // On the embedded database this process is the only one counting: it asks the database once.
    if (!env.DATABASE_URL) expect(limits.customerBuildTime.check(customer)).toBeUndefined()
    limits.customerBuildTime.addAfterAnswer(customer, 100)
    await expect(limits.customerBuildTime.check(customer)).rejects.toThrow(/used up its build time/)
    await limits.customerBuildTime.stored()
    expect(await storedPoints()).toBe(1000)
  })
})
