import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchPublicUrl, PublicUrlError } from '@/lib/outbound/fetch-public-url'

// A local server stands in for the internet: the real policy refuses it, and the tests that
// exercise redirects, limits and pinning allow exactly 127.0.0.1 (never 127.0.0.2).
let server: http.Server
let port: number
const requests: { url: string; host: string }[] = []

beforeAll(async () => {
  server = http.createServer((request, response) => {
    requests.push({ url: request.url ?? '', host: request.headers.host ?? '' })
    const url = new URL(request.url ?? '/', 'http://local')
    if (url.pathname === '/image') return void response.writeHead(200, { 'content-type': 'image/png' }).end('PNG')
    if (url.pathname === '/redirect')
      return void response.writeHead(302, { location: url.searchParams.get('to') ?? '/image' }).end()
    if (url.pathname === '/loop') return void response.writeHead(301, { location: '/loop' }).end()
    if (url.pathname === '/big') return void response.writeHead(200).end(Buffer.alloc(2048))
    if (url.pathname === '/big-chunked') {
      response.writeHead(200, { 'transfer-encoding': 'chunked' })
      for (let i = 0; i < 4; i++) response.write(Buffer.alloc(1024))
      return void response.end()
    }
    if (url.pathname === '/slow') return void setTimeout(() => response.end('late'), 2000)
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const onlyLocal = { isAllowedAddress: (address: string) => address === '127.0.0.1' }

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(PublicUrlError)
  return (error as Error).message
}

describe('fetchPublicUrl with the real address policy', () => {
  it.each([
    ['loopback by IP', () => `http://127.0.0.1:${port}/image`],
    ['loopback by name', () => `http://localhost:${port}/image`],
    ['loopback in hex', () => `http://0x7f000001:${port}/image`],
    ['IPv6 loopback', () => `http://[::1]:${port}/image`],
    ['mapped IPv4 loopback', () => `http://[::ffff:127.0.0.1]:${port}/image`],
    ['the metadata service', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', () => 'http://10.0.0.1/texture.png'],
  ])('refuses %s without connecting', async (_case, url) => {
    const before = requests.length
    expect(await refusal(fetchPublicUrl(url()))).toMatch(/not a public address/)
    expect(requests.length).toBe(before)
  })

  it.each([
    ['file:///etc/passwd', /file: URLs are not fetched/],
    ['ftp://example.com/a.png', /ftp: URLs are not fetched/],
    ['http://user:secret@example.com/a.png', /credentials/],
    ['not a url', /not a URL/],
  ])('refuses %s', async (url, message) => {
    expect(await refusal(fetchPublicUrl(url))).toMatch(message)
  })

  it('refuses a name when any of its addresses is private', async () => {
    const resolve = async () => ['93.184.215.14', '127.0.0.1']
    expect(await refusal(fetchPublicUrl('http://mixed.example/a.png', { resolve }))).toBe(
      'mixed.example is not a public address',
    )
  })
})

describe('fetchPublicUrl mechanics (127.0.0.1 allowed for the test)', () => {
  it('fetches a body with its content type', async () => {
    const response = await fetchPublicUrl(`http://127.0.0.1:${port}/image`, onlyLocal)
    expect(response.body.toString()).toBe('PNG')
    expect(response.contentType).toBe('image/png')
  })

  it('connects to the checked address, not to a second lookup, and keeps the Host header', async () => {
    let lookups = 0
    const resolve = async () => {
      lookups++
      return ['127.0.0.1']
    }
    const response = await fetchPublicUrl(`http://rebind.example:${port}/image`, { ...onlyLocal, resolve })
    expect(response.body.toString()).toBe('PNG')
    expect(lookups).toBe(1)
    expect(requests.at(-1)?.host).toBe(`rebind.example:${port}`)
  })

  it('follows up to 3 redirects and checks every hop', async () => {
    const chain = `/redirect?to=${encodeURIComponent(`/redirect?to=${encodeURIComponent('/redirect?to=/image')}`)}`
    expect((await fetchPublicUrl(`http://127.0.0.1:${port}${chain}`, onlyLocal)).body.toString()).toBe('PNG')
    expect(await refusal(fetchPublicUrl(`http://127.0.0.1:${port}/loop`, onlyLocal))).toMatch(/more than 3 redirects/)
    const toInternal = `/redirect?to=${encodeURIComponent(`http://127.0.0.2:${port}/image`)}`
    const before = requests.length
    expect(await refusal(fetchPublicUrl(`http://127.0.0.1:${port}${toInternal}`, onlyLocal))).toBe(
      '127.0.0.2 is not a public address',
    )
    expect(requests.length).toBe(before + 1)
  })

  it('stops at the size limit, declared or streamed', async () => {
    expect(await refusal(fetchPublicUrl(`http://127.0.0.1:${port}/big`, { ...onlyLocal, maxBytes: 1000 }))).toMatch(
      /larger than 1000 bytes/,
    )
    expect(
      await refusal(fetchPublicUrl(`http://127.0.0.1:${port}/big-chunked`, { ...onlyLocal, maxBytes: 1000 })),
    ).toMatch(/larger than 1000 bytes/)
  })

  it('stops at the time limit', async () => {
    const started = Date.now()
    expect(await refusal(fetchPublicUrl(`http://127.0.0.1:${port}/slow`, { ...onlyLocal, timeoutMs: 300 }))).toMatch(
      /no answer within 300 ms/,
    )
    expect(Date.now() - started).toBeLessThan(1500)
  })

  it('reports an error status', async () => {
    expect(await refusal(fetchPublicUrl(`http://127.0.0.1:${port}/missing`, onlyLocal))).toMatch(/HTTP 404/)
  })
})
