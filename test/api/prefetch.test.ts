import { afterEach, describe, expect, it, vi } from 'vitest'
import { limits } from '@/lib/api/rate-limit'
import { buildStored } from '@/lib/builds/build-cache'
import { openscadEngine } from '@/lib/cad/openscad/openscad-engine'
import { db } from '@/lib/db'
import { env } from '@/lib/env'
import * as sessions from '@/lib/sessions/operations'
import { ZObjectInfo, ZParameterSet } from '@/lib/sessions/schemas'
import { api, readBody } from '@/test/support/api-client'
import { expectError, openSession, registerApplication, signUp } from '@/test/support/fixtures'
import { COUNT_TO_N } from '@/test/support/models'

const MODEL = (tag: string) => `size = 10; // [1:100]
cube(size);
echo("${tag}");
`

interface Opened {
  session: { id: string }
  token: string
  headers?: Record<string, string>
}

const prefetch = ({ session, token, headers }: Opened, candidates: Record<string, unknown>[]) =>
  api('POST', `/configsessions/${session.id}/prefetch`, {
    token,
    headers,
    body: {
      candidates: candidates.map((values) =>
        Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value }])),
      ),
    },
  })
const sizeOf = async ({ session, token, headers }: Opened) =>
  ZParameterSet.parse(await (await api('GET', `/configsessions/${session.id}/parameters`, { token, headers })).json())
    .size?.value
const objectInfo = async ({ session, token, headers }: Opened) =>
  ZObjectInfo.parse(await (await api('GET', `/configsessions/${session.id}/objectinfo`, { token, headers })).json())

/** The objectinfo once the slicer's slice of the model (background work it starts) has ended and is stored. */
async function slicedInfo(opened: Opened) {
  await expect.poll(async () => (await objectInfo(opened)).slice.state, { timeout: 60_000, interval: 200 }).toBe('done')
  await buildStored()
}

/**
 * Sends the candidates until the build cache (this file's database alone) holds `count` builds. A
 * candidate no free worker takes at once is dropped (the second worker may still be booting): sent
 * again, as a dragging page does.
 */
async function prefetchUntilStored(opened: Opened, candidates: Record<string, unknown>[], count: number) {
  await expect
    .poll(async () => (await prefetch(opened, candidates), db.cacheEntry.count()), { timeout: 30_000, interval: 100 })
    .toBe(count)
}

afterEach(() => vi.restoreAllMocks())

describe('POST /configsessions/{id}/prefetch', () => {
  it('builds the candidates in the background, so that setting one finds its model built, and stores nothing', async () => {
    const opened = await openSession(MODEL(`candidate ${crypto.randomUUID()}`))
    await slicedInfo(opened)
    const stored = await db.cacheEntry.count()
    const builds = vi.spyOn(openscadEngine, 'build')
    const response = await prefetch(opened, [{ size: 12 }, { size: 13 }])
    expect(response.status).toBe(202)
    expect(await readBody(response, sessions.prefetchModels)).toEqual({ candidates: 2 })
    expect(await sizeOf(opened)).toBe(10)
    await prefetchUntilStored(opened, [{ size: 12 }, { size: 13 }], stored + 2)
    const built = builds.mock.calls.filter((_, index) => builds.mock.settledResults[index]?.type === 'fulfilled')
    expect(built.map(([request]) => request.values)).toEqual([{ size: 12 }, { size: 13 }])
    expect(await sizeOf(opened)).toBe(10)

    const calls = builds.mock.calls.length
    const set = await api('PUT', `/configsessions/${opened.session.id}/parameters`, {
      token: opened.token,
      body: { size: { value: 13 } },
    })
    expect(set.status).toBe(200)
    const model = await api('GET', `/configsessions/${opened.session.id}/model`, { token: opened.token })
    expect(model.headers.get('x-build-cache')).toBe('memory')
    expect((await objectInfo(opened)).boundingBox.maxX).toBe(13)
    expect(builds).toHaveBeenCalledTimes(calls)
  })

  it("does not count against an anonymous customer's build time, and is 429 once that is used up", async () => {
    const shop = await openSession(MODEL(`budget ${crypto.randomUUID()}`))
    const { key } = await registerApplication(shop.token, shop.configuratorId)
    const { accessToken } = (await (
      await api('POST', '/auth/anonymous', { headers: { 'x-api-key': key } })
    ).json()) as { accessToken: string }
    const headers = { 'x-api-key': key }
    const opened = await api('POST', '/configsessions', {
      token: accessToken,
      headers,
      body: { configuratorId: shop.configuratorId },
    })
    const customer = { session: await readBody(opened, sessions.createSession), token: accessToken, headers }
    await slicedInfo(customer)
    const { identityId } = await db.configSession.findUniqueOrThrow({ where: { id: customer.session.id } })
    const spent = () => limits.customerBuildTime.add(identityId!, 0)
    await limits.customerBuildTime.stored()
    const before = await spent()
    await buildStored()
    await prefetchUntilStored(customer, [{ size: 30 }], (await db.cacheEntry.count()) + 1)
    expect(await spent()).toBe(before)

    await limits.customerBuildTime.add(identityId!, env.CUSTOMER_BUILD_SECONDS * 1000)
    await expectError(await prefetch(customer, [{ size: 31 }]), 429, 'too_many_requests', /used up its build time/)
  })

  it('drops a candidate while every worker it may take is busy, leaving nothing cached of it', async () => {
    const busy = await openSession(`${COUNT_TO_N}\ncube(1);\n`)
    const opened = await openSession(MODEL(`dropped ${crypto.randomUUID()}`))
    await Promise.all([objectInfo(busy), objectInfo(opened)])
    const builds = vi.spyOn(openscadEngine, 'build')
    // About two seconds on one worker: a candidate never takes the last free one.
    const counting = api('PUT', `/configsessions/${busy.session.id}/parameters`, {
      token: busy.token,
      body: { n: { value: 800_000 } },
    })
    await expect.poll(() => builds.mock.calls.length).toBe(1)
    expect((await prefetch(opened, [{ size: 14 }])).status).toBe(202)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const set = await api('PUT', `/configsessions/${opened.session.id}/parameters`, {
      token: opened.token,
      body: { size: { value: 14 } },
    })
    expect(set.status).toBe(200)
    expect((await objectInfo(opened)).boundingBox.maxX).toBe(14)
    expect((await counting).status).toBe(200)
  })

  it.each([
    ['a value out of range', [{ size: 500 }], 422, /size: must be at most 100/],
    ['an unknown parameter', [{ size: 11 }, { depth: 3 }], 422, /depth: is not a parameter of this model/],
    ['no candidate', [], 422, /candidates/],
    ['more than 6 candidates', [11, 12, 13, 14, 15, 16, 17].map((size) => ({ size })), 422, /candidates/],
  ])('refuses %s, building nothing', async (_case, candidates, status, message) => {
    const opened = await openSession(MODEL(`refused ${crypto.randomUUID()}`))
    await objectInfo(opened)
    const builds = vi.spyOn(openscadEngine, 'build')
    await expectError(await prefetch(opened, candidates), status, 'unprocessable_entity', message)
    expect(builds).not.toHaveBeenCalled()
  })

  it("is 404 for someone else's session", async () => {
    const opened = await openSession(MODEL('not yours'))
    const stranger = await signUp()
    await expectError(await prefetch({ ...opened, token: stranger.token }, [{ size: 11 }]), 404, 'not_found')
  })
})
