import http from 'node:http'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, signIn, startServer, tempDir, type StartedServer } from '@/test/support/start-server'

// SIGTERM to the real server while a request is in flight: a call of an extra service whose
// upstream, here in the test, holds the answer until the test lets it go. When the upstream has
// the request, the server is inside the route handler.

let upstream: http.Server
let upstreamPort: number
const held: http.ServerResponse[] = []
let heard: () => void = () => {}

beforeAll(async () => {
  upstreamPort = await freePort()
  upstream = http.createServer((_request, response) => {
    held.push(response)
    heard()
  })
  await new Promise<void>((resolve) => upstream.listen(upstreamPort, '127.0.0.1', resolve))
})

afterAll(() => {
  held.forEach((response) => response.destroy())
  upstream.close()
})

async function start(
  env: Record<string, string> = {},
): Promise<{ server: StartedServer; token: string; exited: Promise<number | null> }> {
  const server = await startServer({
    DATA_DIR: tempDir(),
    SEED_DEMO: 'false',
    SERVICES: JSON.stringify({ slow: `http://127.0.0.1:${upstreamPort}/base` }),
    ...env,
  })
  const exited = new Promise<number | null>((resolve) => server.child.on('exit', (code) => resolve(code)))
  return { server, token: await signIn(server.url), exited }
}

/** Calls the held service; resolves once the upstream has the request, with the answer to come. */
async function callHeldService(url: string, token: string): Promise<{ answer: Promise<Response> }> {
  const upstreamHasIt = new Promise<void>((resolve) => (heard = resolve))
  const answer = fetch(`${url}/api/services/slow/wait`, { headers: { authorization: `Bearer ${token}` } })
  answer.catch(() => {})
  await upstreamHasIt
  return { answer }
}

/** An idle keep-alive connection: one request answered on it, the socket kept. */
async function idleConnection(url: string): Promise<net.Socket> {
  const agent = new http.Agent({ keepAlive: true })
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/api/capabilities`, { agent }, (response) => {
      response.resume()
      response.on('end', () => resolve(request.socket!))
    })
    request.on('error', reject)
  })
}

function connect(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => resolve(socket))
    socket.on('error', reject)
  })
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50))
}

describe('shutdown', () => {
  it('on SIGTERM refuses new connections, closes idle ones, finishes the request in flight, exits 0', async () => {
    const { server, token, exited } = await start()
    const idle = await idleConnection(server.url)
    const idleClosed = new Promise((resolve) => idle.on('close', resolve))
    const { answer } = await callHeldService(server.url, token)
    server.child.kill('SIGTERM')
    await until(() => server.output().includes('SIGTERM, finishing requests in flight'))
    await idleClosed
    await expect(connect(server.url)).rejects.toMatchObject({ code: 'ECONNREFUSED' })
    expect(server.child.exitCode).toBeNull()

    held.pop()!.end('done')
    const response = await answer
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('done')
    // The answered connection was kept alive (fetch's default): the server closes it once idle,
    // not after its keep-alive timeout (5 s, then 1 s more), and exits; slack for a loaded machine.
    const answered = Date.now()
    expect(await exited).toBe(0)
    expect(Date.now() - answered).toBeLessThan(4000)
  })

  it('cuts off a request still running after SHUTDOWN_TIMEOUT_SECONDS and exits 1', async () => {
    const { server, token, exited } = await start({ SHUTDOWN_TIMEOUT_SECONDS: '1' })
    const { answer } = await callHeldService(server.url, token)
    const signalled = Date.now()
    server.child.kill('SIGTERM')
    expect(await exited).toBe(1)
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1000)
    await expect(answer).rejects.toThrow()
    expect(server.output()).toContain('still busy 1 s after SIGTERM, cutting off')
  })
})
