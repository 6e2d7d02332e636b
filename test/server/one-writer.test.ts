import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, signIn, startServer, stopServer, tempDir, type StartedServer } from '@/test/support/start-server'

// The embedded database has one writer: the running server. `npm run library` beside it works
// through the server's API; a second server, or the command without a way to sign in, refuses
// at once with one line naming the holder and changes nothing. After a clean stop the database
// starts with everything it had.

const MCAD_DIR = process.env.MCAD_DIR ?? '/usr/share/openscad/libraries/MCAD'

const dataDir = tempDir()
let server: StartedServer

/** `npm run library -- ...args` on the server's DATA_DIR, as an admin runs it in a shell. */
function library(args: string[], env: Record<string, string> = ADMIN_ENV) {
  const { PARAFORM_TOKEN: _token, ADMIN_EMAIL: _email, ADMIN_PASSWORD: _password, ...clean } = process.env
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/library.ts', ...args], {
    env: { ...clean, DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

const ADMIN_ENV = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }

async function listed(url: string): Promise<{ configurators: string[]; libraries: string[] }> {
  const headers = { authorization: `Bearer ${await signIn(url)}` }
  const names = async (path: string) =>
    ((await (await fetch(`${url}/api${path}`, { headers })).json()) as { name: string }[])
      .map(({ name }) => name)
      .sort()
  return { configurators: await names('/configurators'), libraries: await names('/libraries') }
}

beforeAll(async () => {
  server = await startServer({ DATA_DIR: dataDir, SEED_DEMO: 'true' })
})

afterAll(async () => {
  await stopServer(server)
})

describe('one writer for the embedded database', () => {
  it('adds a library through the running server, refuses a second opener, and keeps everything over a restart', async () => {
    const added = library(['add', MCAD_DIR])
    expect(added.status, added.output).toBe(0)
    expect(added.output).toContain(`installed MCAD`)
    expect(added.output).toContain(`through ${server.url}`)
    const before = await listed(server.url)
    expect(before.libraries).toEqual(['MCAD'])
    expect(before.configurators.length).toBeGreaterThan(0)

    // Without a credential the command cannot use the server, and it does not open the database itself.
    const unsigned = library(['remove', 'MCAD'], {})
    expect(unsigned.status).toBe(1)
    expect(unsigned.output.trim().split('\n')).toHaveLength(1)
    expect(unsigned.output).toContain('set ADMIN_EMAIL and ADMIN_PASSWORD')

    // A second server on the same DATA_DIR: one line naming the holder, exit 1.
    await expect(startServer({ DATA_DIR: dataDir, SEED_DEMO: 'true' })).rejects.toThrow(
      new RegExp(`in use by process ${server.child.pid} \\(server\\.ts\\) since \\d{4}-`),
    )

    await stopServer(server)
    // Stopped, the command works on the database itself.
    const listedDirectly = library(['list'])
    expect(listedDirectly.status, listedDirectly.output).toBe(0)
    expect(listedDirectly.output).toMatch(/^MCAD: \d+ files/m)

    server = await startServer({ DATA_DIR: dataDir, SEED_DEMO: 'true' })
    expect(await listed(server.url)).toEqual(before)
  })
})
