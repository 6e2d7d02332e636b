import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import http, { type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { forwardRequest } from '@/lib/services/forward-request'

interface Received {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: Buffer
}

let received: Received[] = []
let server: http.Server
let baseUrl: string
const publicPath = '/api/services/echo/'

/** The service under /base: answers by the first segment after it, or echoes the body. */
async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  received.push({
    method: request.method ?? '',
    url: request.url ?? '',
    headers: request.headers,
    body: Buffer.concat(chunks),
  })
  const [, , command, argument] = new URL(request.url ?? '', 'http://upstream').pathname.split('/')
  if (command === 'status') {
    response.writeHead(Number(argument), {
      'content-type': 'text/x-status',
      'set-cookie': 'upstream=1',
      'x-upstream': 'yes',
    })
    response.end(`answered ${argument}`)
  } else if (command === 'slow') {
    setTimeout(() => response.end('late'), 2000)
  } else if (command === 'slow-body') {
    response.writeHead(200, { 'content-type': 'text/plain' })
    response.write('first ')
    setTimeout(() => response.end('second'), 500)
  } else if (command === 'redirect') {
    response.writeHead(302, { location: 'http://elsewhere.test/target' })
    response.end()
  } else if (command === 'gzip') {
    const body = gzipSync('unpacked')
    response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': body.length })
    response.end(body)
  } else {
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-disposition': 'attachment; filename="echo.bin"',
    })
    response.end(Buffer.concat(chunks))
  }
}

function incoming(path: string, init: RequestInit & { duplex?: 'half' } = {}): Request {
  return new Request(`http://paraform.test/api/services/echo/${path}`, init)
}

beforeAll(async () => {
  server = http.createServer((request, response) => void handle(request, response))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base`
})

afterAll(() => {
  server.closeAllConnections()
  server.close()
})

beforeEach(() => {
  received = []
})

describe('forwardRequest', () => {
  it.each(['PUT', 'POST'])('passes a %s body, query and further path segments on unchanged', async (method) => {
    const body = new Uint8Array(randomBytes(300_000))
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < body.length; at += 64_000) controller.enqueue(body.subarray(at, at + 64_000))
        controller.close()
      },
    })
    const headers = { 'content-length': String(body.length) }
    const request = incoming('upload/configsessions/s1/part.bin?name=a%20b&x=1&x=2', {
      method,
      headers,
      body: stream,
      duplex: 'half',
    })

    const response = await forwardRequest({
      request,
      baseUrl,
      path: 'upload/configsessions/s1/part.bin',
      publicPath,
      timeoutMs: 5000,
    })

    expect(received).toHaveLength(1)
    expect(received[0]).toMatchObject({ method, url: '/base/upload/configsessions/s1/part.bin?name=a%20b&x=1&x=2' })
    expect(received[0]!.headers['content-length']).toBe(String(body.length))
    expect(Buffer.compare(received[0]!.body, body)).toBe(0)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="echo.bin"')
    expect(Buffer.compare(Buffer.from(await response.arrayBuffer()), body)).toBe(0)
  })

  it('passes a GET on with its query', async () => {
    const response = await forwardRequest({
      request: incoming('list?page=2'),
      baseUrl,
      path: 'list',
      publicPath,
      timeoutMs: 5000,
    })
    expect(response.status).toBe(200)
    expect(received[0]).toMatchObject({ method: 'GET', url: '/base/list?page=2' })
  })

  it('joins a base URL with a trailing slash and re-encodes decoded segments', async () => {
    await forwardRequest({
      request: incoming('x'),
      baseUrl: `${baseUrl}/`,
      path: 'a b/what?#%/ü',
      publicPath,
      timeoutMs: 5000,
    })
    expect(received[0]!.url).toBe('/base/a%20b/what%3F%23%25/%C3%BC')
  })

  it.each([202, 418, 500])('returns the status %i, body and content type unchanged', async (status) => {
    const response = await forwardRequest({
      request: incoming(`status/${status}`),
      baseUrl,
      path: `status/${status}`,
      publicPath,
      timeoutMs: 5000,
    })
    expect(response.status).toBe(status)
    expect(response.headers.get('content-type')).toBe('text/x-status')
    expect(await response.text()).toBe(`answered ${status}`)
    expect(response.headers.get('set-cookie')).toBeNull()
  })

  it('keeps our credentials and hop-by-hop headers from the service', async () => {
    const headers = {
      authorization: 'Bearer secret-token',
      cookie: 'session=secret',
      'x-api-key': 'secret-key',
      'x-custom': 'kept',
      'x-dropped-by-connection': 'hop',
      connection: 'x-dropped-by-connection',
      'proxy-authorization': 'Basic c2VjcmV0',
      accept: 'application/json',
      'content-type': 'text/plain',
    }
    await forwardRequest({
      request: incoming('x', { method: 'POST', headers, body: 'hello' }),
      baseUrl,
      path: 'x',
      publicPath,
      timeoutMs: 5000,
    })

    const arrived = received[0]!.headers
    expect(arrived).not.toHaveProperty('authorization')
    expect(arrived).not.toHaveProperty('cookie')
    expect(arrived).not.toHaveProperty('x-api-key')
    expect(arrived).not.toHaveProperty('proxy-authorization')
    expect(arrived).not.toHaveProperty('x-dropped-by-connection')
    expect(arrived).toMatchObject({ 'x-custom': 'kept', accept: 'application/json', 'content-type': 'text/plain' })
    expect(JSON.stringify(arrived)).not.toContain('secret')
  })

  it('returns a redirect without following it, dropping a Location outside the service', async () => {
    const response = await forwardRequest({
      request: incoming('redirect'),
      baseUrl,
      path: 'redirect',
      publicPath,
      timeoutMs: 5000,
    })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBeNull()
    expect(received).toHaveLength(1)
  })

  it('drops the encoding headers of a body fetch has decoded', async () => {
    const response = await forwardRequest({
      request: incoming('gzip'),
      baseUrl,
      path: 'gzip',
      publicPath,
      timeoutMs: 5000,
    })
    expect(received[0]!.headers['accept-encoding']).toBe('identity')
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(response.headers.get('content-length')).toBeNull()
    expect(await response.text()).toBe('unpacked')
  })

  it('answers 504 when the service does not answer in time', async () => {
    const started = Date.now()
    const forwarding = forwardRequest({ request: incoming('slow'), baseUrl, path: 'slow', publicPath, timeoutMs: 200 })
    await expect(forwarding).rejects.toMatchObject({
      code: 'gateway_timeout',
      status: 504,
      message: 'Service did not answer within 200 ms',
    })
    expect(Date.now() - started).toBeLessThan(1500)
  })

  it('streams the answer, and does not cut off a body still streaming after the time limit', async () => {
    const started = Date.now()
    const response = await forwardRequest({
      request: incoming('slow-body'),
      baseUrl,
      path: 'slow-body',
      publicPath,
      timeoutMs: 200,
    })
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    expect((await reader.read()).value).toBe('first ')
    expect(Date.now() - started).toBeLessThan(400)
    expect((await reader.read()).value).toBe('second')
  })

  it('answers 502 when the service is unreachable', async () => {
    const closed = http.createServer().listen(0, '127.0.0.1')
    await once(closed, 'listening')
    const { port } = closed.address() as AddressInfo
    closed.close()
    await once(closed, 'close')

    const forwarding = forwardRequest({
      request: incoming('x'),
      baseUrl: `http://127.0.0.1:${port}`,
      path: 'x',
      publicPath,
      timeoutMs: 5000,
    })
    await expect(forwarding).rejects.toMatchObject({ code: 'bad_gateway', status: 502, message: 'Service unreachable' })
  })
})
