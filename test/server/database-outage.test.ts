import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, dropTestDatabase } from '@/test/support/postgres'
import { freePort, signIn, type StartedServer, startServer, stopServer, tempDir } from '@/test/support/start-server'

// A real server on a real PostgreSQL, reached through a TCP relay that the test cuts, as a
// network outage or a database restart would: every request answers 503 saying so, the server
// keeps running, and it serves again once the database is back.

/** A TCP relay to PostgreSQL that can drop every connection and refuse new ones, then resume. */
async function startRelay(target: URL) {
  const port = await freePort()
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => [client, upstream].forEach((end) => end.destroy()))
    }
    client.pipe(upstream).pipe(client)
  })
  const open = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  await open()
  return {
    port,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        sockets.forEach((socket) => socket.destroy())
      }),
    open,
  }
}

let databaseUrl: string
let relay: Awaited<ReturnType<typeof startRelay>>
let server: StartedServer

beforeAll(async () => {
  databaseUrl = await createTestDatabase()
  relay = await startRelay(new URL(databaseUrl))
  const relayed = new URL(databaseUrl)
  relayed.host = `127.0.0.1:${relay.port}`
  server = await startServer({ DATABASE_URL: relayed.toString(), DATA_DIR: tempDir(), SEED_DEMO: 'false' })
})

afterAll(async () => {
  if (server) await stopServer(server)
  await relay?.cut()
  await dropTestDatabase(databaseUrl)
})

describe('a database outage', () => {
  it('answers 503 naming the database, keeps the server running, and recovers', async () => {
    const token = await signIn(server.url)
    const list = () => fetch(`${server.url}/api/configurators`, { headers: { authorization: `Bearer ${token}` } })
    expect((await list()).status).toBe(200)

    await relay.cut()
    const health = await fetch(`${server.url}/api/health`)
    expect(health.status).toBe(503)
    // The part that is down, and nothing of its address or driver.
    expect(await health.json()).toEqual({
      error: { code: 'service_unavailable', message: 'The database cannot be reached' },
    })
    const refused = await list()
    expect(refused.status).toBe(503)
    expect(await refused.json()).toEqual({
      error: { code: 'service_unavailable', message: 'The database cannot be reached; try again later' },
    })

    await relay.open()
    const deadline = Date.now() + 30_000
    while ((await fetch(`${server.url}/api/health`)).status !== 200) {
      expect(Date.now(), server.output()).toBeLessThan(deadline)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect((await list()).status).toBe(200)
    expect(server.child.exitCode).toBeNull()
  })
})
