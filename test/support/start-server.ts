import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

// server.ts over the production build (`npm test` builds first), as a process of its own.

export const ADMIN = { email: 'admin@example.test', password: 'admin password 1' }

export interface StartedServer {
  child: ChildProcess
  url: string
  output: () => string
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'paraform-server-'))
}

export async function startServer(env: Record<string, string>): Promise<StartedServer> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    env: {
      ...process.env,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      NODE_ENV: 'production',
      DEMO_SHOP_PORT: '0',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<string>((resolve) => child.on('exit', (code) => resolve(`exited with ${code}`)))
  const listening = new Promise<string>((resolve) => {
    const check = () => (output.includes('listening on') ? resolve('up') : setTimeout(check, 100))
    check()
  })
  const outcome = await Promise.race([listening, exited])
  if (outcome !== 'up') throw new Error(`server did not start (${outcome}): ${output}`)
  return { child, url: `http://127.0.0.1:${port}`, output: () => output }
}

export async function stopServer(server: StartedServer): Promise<void> {
  if (server.child.exitCode !== null) return
  const exited = new Promise((resolve) => server.child.on('exit', resolve))
  server.child.kill('SIGTERM')
  await exited
}

/** An API call to a started server with a bearer token: a string or bytes go as they are, anything else as JSON. */
export function callServer(
  url: string,
  token: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<Response> {
  const isRaw = typeof body === 'string' || body instanceof Uint8Array
  return fetch(`${url}/api${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && !isRaw && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : isRaw ? (body as string) : JSON.stringify(body),
  })
}

export async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  if (response.status !== 200) throw new Error(`login answered ${response.status}`)
  return ((await response.json()) as { accessToken: string }).accessToken
}

/** Sends the request line exactly as written, without any client-side path normalization. */
export async function rawRequest(
  url: string,
  requestLine: string,
  headers: string[] = [],
): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write([requestLine, `Host: ${hostname}`, 'Connection: close', ...headers, '', ''].join('\r\n'))
    })
    let data = ''
    socket.on('data', (chunk) => (data += chunk.toString()))
    socket.on('end', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n')
      resolve({ status: Number(data.split(' ')[1]), head, body: rest.join('\r\n\r\n') })
    })
    socket.on('error', reject)
  })
}

export interface StartedNpm {
  child: ChildProcess
  output: () => string
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>
  /** Signals npm and the process it runs (one process group). */
  kill(signal: NodeJS.Signals): void
}

/** `npm <args>` as an operator types it, in its own process group; resolves once `ready` shows in its output. */
export async function startNpm(args: string[], env: Record<string, string>, ready: string): Promise<StartedNpm> {
  const child = spawn('npm', args, {
    env: { ...process.env, NODE_ENV: 'production', DEMO_SHOP_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const started: StartedNpm = {
    child,
    output: () => output,
    exited,
    kill: (signal) => process.kill(-child.pid!, signal),
  }
  const up = new Promise<void>((resolve) => {
    const check = () => (output.includes(ready) ? resolve() : setTimeout(check, 100))
    check()
  })
  const outcome = await Promise.race([up.then(() => 'up'), exited.then((code) => `exited with ${code}`)])
  if (outcome !== 'up') throw new Error(`npm ${args.join(' ')} did not start (${outcome}): ${output}`)
  return started
}
