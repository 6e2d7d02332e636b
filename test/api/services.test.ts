import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import http, { type IncomingHttpHeaders } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { api } from '@/test/support/api-client'
import { createConfigurator, expectError, registerApplication, signUp } from '@/test/support/fixtures'

// lib/env reads SERVICES once, before this file runs (test/support/setup-api.ts imports it), so the
// upstream's address comes from the environment the vitest project sets, one port a project:
//   postgres: SERVICES='{"echo":"http://127.0.0.1:45711/base"}', SERVICE_TIMEOUT_SECONDS='1'
//   pglite:   SERVICES='{"echo":"http://127.0.0.1:45712/base"}', SERVICE_TIMEOUT_SECONDS='1'
function echoServiceUrl(): URL {
  const services = JSON.parse(process.env.SERVICES ?? '{}') as Record<string, string>
  if (!services.echo || process.env.SERVICE_TIMEOUT_SECONDS !== '1') {
    throw new Error(
      'services.test.ts needs SERVICES={"echo":"http://127.0.0.1:<port>/base"} and SERVICE_TIMEOUT_SECONDS=1 in the vitest project env',
    )
  }
  return new URL(services.echo)
}

interface Received {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: Buffer
}

let received: Received[] = []
let upstream: http.Server
const pending = new Set<NodeJS.Timeout>()

/**
 * The echo service under /base: `status/{code}` answers that status, `redirect?to=` redirects
 * there, `html` answers a page with a script, `slow` answers too late, anything else echoes.
 */
async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const body = Buffer.concat(chunks)
  received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body })
  const [, , command, argument] = new URL(request.url ?? '/', 'http://upstream').pathname.split('/')
  if (command === 'status') {
    response.writeHead(Number(argument), { 'content-type': 'application/x-status', 'x-upstream-secret': 'internal' })
    response.end(`answered ${argument}`)
  } else if (command === 'redirect') {
    // `redirect?to=...` answers 302 to exactly that Location, with a body.
    response.writeHead(302, {
      location: new URL(request.url ?? '/', 'http://upstream').searchParams.get('to') ?? '',
      'content-type': 'text/html',
    })
    response.end('<p>moved</p>')
  } else if (command === 'html') {
    response.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': "script-src 'unsafe-inline'" })
    response.end('<script>parent.postMessage(document.cookie, "*")</script>')
  } else if (command === 'slow') {
    const timer = setTimeout(() => {
      pending.delete(timer)
      response.end('too late')
    }, 3000)
    pending.add(timer)
  } else {
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-disposition': 'attachment; filename="echo.bin"',
    })
    response.end(body)
  }
}

beforeAll(async () => {
  const url = echoServiceUrl()
  upstream = http.createServer((request, response) => void handle(request, response))
  upstream.listen(Number(url.port), url.hostname)
  await once(upstream, 'listening')
})

afterAll(async () => {
  for (const timer of pending) clearTimeout(timer)
  upstream?.closeAllConnections()
  upstream?.close()
})

beforeEach(() => {
  received = []
})

async function shop() {
  const owner = await signUp()
  const configuratorId = await createConfigurator(owner.token)
  const application = await registerApplication(owner.token, configuratorId)
  const anonymous = await api('POST', '/auth/anonymous', { headers: { 'x-api-key': application.key } })
  const { accessToken } = (await anonymous.json()) as { accessToken: string }
  return { owner, application, anonymous: accessToken }
}

describe('extra services', () => {
  it.each(['POST', 'PUT'])(
    'passes a %s with its raw body, query and further path segments on, and its answer back',
    async (method) => {
      const { owner } = await shop()
      const body = new Uint8Array(randomBytes(200_000))
      const response = await api(
        method,
        '/services/echo/convert/configsessions/abc/logo%20v2.svg?format=png&dpi=300&dpi=600',
        {
          token: owner.token,
          body,
          headers: { 'content-type': 'image/svg+xml', 'x-custom': 'kept' },
        },
      )

      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/octet-stream')
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="echo.bin"')
      expect(Buffer.compare(Buffer.from(await response.arrayBuffer()), body)).toBe(0)
      expect(received).toHaveLength(1)
      expect(received[0]).toMatchObject({
        method,
        url: '/base/convert/configsessions/abc/logo%20v2.svg?format=png&dpi=300&dpi=600',
      })
      expect(received[0]!.headers).toMatchObject({ 'content-type': 'image/svg+xml', 'x-custom': 'kept' })
      expect(Buffer.compare(received[0]!.body, body)).toBe(0)
    },
  )

  it('passes a GET on with its query', async () => {
    const { owner } = await shop()
    const response = await api('GET', '/services/echo/list?page=2', { token: owner.token })
    expect(response.status).toBe(200)
    expect(received).toEqual([expect.objectContaining({ method: 'GET', url: '/base/list?page=2' })])
  })

  it.each([202, 418])("returns the service's status %i and body unchanged", async (status) => {
    const { owner } = await shop()
    const response = await api('PUT', `/services/echo/status/${status}`, { token: owner.token, body: 'x' })
    expect(response.status).toBe(status)
    expect(response.headers.get('content-type')).toBe('application/x-status')
    expect(await response.text()).toBe(`answered ${status}`)
    expect(response.headers.get('x-upstream-secret')).toBeNull()
  })

  it('never forwards Authorization or X-API-KEY', async () => {
    const { application, anonymous } = await shop()
    const response = await api('POST', '/services/echo/upload', {
      token: anonymous,
      headers: { 'x-api-key': application.key, cookie: 'paraform-session=secret' },
      body: 'payload',
    })
    expect(response.status).toBe(200)
    const { headers } = received[0]!
    expect(headers).not.toHaveProperty('authorization')
    expect(headers).not.toHaveProperty('x-api-key')
    expect(headers).not.toHaveProperty('cookie')
    expect(JSON.stringify(headers)).not.toContain(anonymous)
    expect(JSON.stringify(headers)).not.toContain(application.key)
  })

  it('keeps status and body but never lets an answer run as a page of this origin', async () => {
    const { owner } = await shop()
    const response = await api('GET', '/services/echo/html', { token: owner.token })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html')
    expect(await response.text()).toBe('<script>parent.postMessage(document.cookie, "*")</script>')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
  })

  it.each([
    [
      'an absolute Location under the base URL',
      (base: string) => `${base}/done?job=1#top`,
      '/api/services/echo/done?job=1#top',
    ],
    ['the base URL itself', (base: string) => base, '/api/services/echo/'],
    ['a path-absolute Location under the base path', () => '/base/a/b%20c', '/api/services/echo/a/b%20c'],
    ['a relative Location, resolved against the request URL', () => 'next?x=1', '/api/services/echo/redirect/next?x=1'],
    ['a relative Location climbing to a sibling', () => '../sibling', '/api/services/echo/sibling'],
    ['a Location beside the base path', (base: string) => `${base.replace('/base', '/basement')}/x`, null],
    ['a Location outside the base path', (base: string) => base.replace('/base', '/admin'), null],
    ['a Location climbing out of the base path', () => '/base/%2e%2e/admin', null],
    ['a relative Location climbing out of the base path', () => '../../admin', null],
    ['another host', () => 'http://169.254.169.254/latest/meta-data', null],
    [
      'the same service under another spelling of its host',
      (base: string) => base.replace('127.0.0.1', 'localhost'),
      null,
    ],
    ['a protocol-relative Location', () => '//evil.example/base/x', null],
    ['a script', () => 'javascript:alert(1)', null],
  ])('maps %s', async (_case, location, expected) => {
    const { owner } = await shop()
    const to = location(echoServiceUrl().href.replace(/\/$/, ''))
    const response = await api('GET', `/services/echo/redirect/here?to=${encodeURIComponent(to)}`, {
      token: owner.token,
    })
    expect(response.status).toBe(302)
    expect(await response.text()).toBe('<p>moved</p>')
    expect(response.headers.get('location')).toBe(expected)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
  })

  it('answers 404 for an unknown service, forwarding nothing', async () => {
    const { owner } = await shop()
    await expectError(
      await api('POST', '/services/nope/convert', { token: owner.token, body: 'x' }),
      404,
      'not_found',
      /nope/,
    )
    await expectError(await api('GET', '/services/Echo/convert', { token: owner.token }), 404, 'not_found')
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      await expectError(
        await api('GET', `/services/${name}/x`, { token: owner.token }),
        404,
        'not_found',
        new RegExp(name),
      )
    }
    expect(received).toEqual([])
  })

  it('answers 504 when the service does not answer in time', async () => {
    const { owner } = await shop()
    const started = Date.now()
    await expectError(await api('GET', '/services/echo/slow', { token: owner.token }), 504, 'gateway_timeout')
    expect(Date.now() - started).toBeLessThan(2500)
    expect(received).toHaveLength(1)
  })

  it('needs credentials and forwards nothing without them', async () => {
    const { application, anonymous } = await shop()
    await expectError(await api('POST', '/services/echo/upload', { body: 'x' }), 401, 'unauthorized')
    await expectError(
      await api('POST', '/services/echo/upload', { token: anonymous, body: 'x' }),
      401,
      'unauthorized',
      /X-API-KEY/,
    )
    await expectError(
      await api('POST', '/services/echo/upload', {
        token: 'not-a-token',
        body: 'x',
        headers: { 'x-api-key': application.key },
      }),
      401,
      'unauthorized',
    )
    expect(received).toEqual([])
  })

  it('refuses hostile path segments (422, a malformed percent-encoding 400), forwarding nothing', async () => {
    const { owner } = await shop()
    for (const path of ['..%2F..%2Fadmin', 'a%5Cb', 'a//b', 'a/%00']) {
      await expectError(
        await api('GET', `/services/echo/${path}`, { token: owner.token }),
        422,
        'unprocessable_entity',
        /Invalid file path/,
      )
    }
    await expectError(await api('GET', '/services/echo/a%E0%A4', { token: owner.token }), 400, 'bad_request')
    expect(received).toEqual([])
  })
})
