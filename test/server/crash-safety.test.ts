import fs from 'node:fs'
import path from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { afterAll, describe, expect, it } from 'vitest'
import { callServer, signIn, startServer, stopServer, tempDir, type StartedServer } from '@/test/support/start-server'

// SIGKILL of the embedded server while writes are in flight: designers creating configurators
// and uploading their models, customers opening sessions, changing values and ordering
// (snapshots), the admin installing libraries. After each kill the
// database starts, and every write the server acknowledged before the kill is there. The kill
// comes after a count of acknowledged writes, not after a time.

const KILLS = 3
/** Acknowledged writes of each round before the kill; more are in flight then. */
const ACKNOWLEDGED_BEFORE_KILL = 40
const WRITERS = 4

const dataDir = tempDir()
let server: StartedServer | undefined

afterAll(async () => {
  if (server) await stopServer(server)
})

interface Acknowledged {
  configurators: Map<string, string>
  /** Session id → the value of `width` its last acknowledged change set. */
  sessions: Map<string, number>
  snapshots: Set<string>
  libraries: Set<string>
}

/** One writer: a configurator with its model, a session of it, then values, until the server dies. */
async function write(
  url: string,
  token: string,
  round: number,
  writer: number,
  acknowledged: Acknowledged,
  onAcknowledged: () => void,
): Promise<void> {
  try {
    for (let n = 0; ; n++) {
      const name = `Crash ${round}.${writer}.${n}`
      const created = await callServer(url, token, 'POST', '/configurators', { name, mainFile: 'main.scad' })
      if (!created.ok) return
      const { UUID } = (await created.json()) as { UUID: string }
      acknowledged.configurators.set(UUID, name)
      onAcknowledged()
      const source = `width = ${10 + n}; // [1:100]\ncube([width, 5, 2]);\n`
      if (
        (await callServer(url, token, 'PUT', `/configurators/${UUID}/files/configurator/main.scad`, source)).status !==
        202
      )
        return
      onAcknowledged()
      const opened = await callServer(url, token, 'POST', '/configsessions', { configuratorId: UUID })
      if (!opened.ok) return
      const { id } = (await opened.json()) as { id: string }
      onAcknowledged()
      for (const width of [20, 30, 40]) {
        if (!(await callServer(url, token, 'PUT', `/configsessions/${id}/parameters`, { width: { value: width } })).ok)
          return
        acknowledged.sessions.set(id, width)
        onAcknowledged()
      }
      const snapshot = await callServer(url, token, 'POST', `/configsessions/${id}/snapshots`, {})
      if (!snapshot.ok) return
      acknowledged.snapshots.add(((await snapshot.json()) as { id: string }).id)
      onAcknowledged()
      const library = `crash${round}x${writer}x${n}`
      if (
        !(
          await callServer(
            url,
            token,
            'POST',
            `/libraries?name=${library}`,
            zipSync({ 'parts.scad': strToU8(`module part() cube(${n + 1});\n`) }),
          )
        ).ok
      )
        return
      acknowledged.libraries.add(library)
      onAcknowledged()
    }
  } catch {
    // The connection died with the server.
  }
}

describe('the embedded database under SIGKILL', () => {
  it(`starts after ${KILLS} kills in the middle of writes and holds every acknowledged write`, async () => {
    const acknowledged: Acknowledged = {
      configurators: new Map(),
      sessions: new Map(),
      snapshots: new Set(),
      libraries: new Set(),
    }
    for (let round = 0; round < KILLS; round++) {
      server = await startServer({ DATA_DIR: dataDir, SEED_DEMO: 'false', PREPARE_MODELS: 'false' })
      const { url, child } = server
      const token = await signIn(url)
      let count = 0
      const killed = new Promise<void>((resolve) => child.on('exit', () => resolve()))
      const onAcknowledged = () => ++count === ACKNOWLEDGED_BEFORE_KILL && child.kill('SIGKILL')
      await Promise.all(
        Array.from({ length: WRITERS }, (_, writer) => write(url, token, round, writer, acknowledged, onAcknowledged)),
      )
      await killed
      expect(count).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_KILL)
    }

    server = await startServer({ DATA_DIR: dataDir, SEED_DEMO: 'false', PREPARE_MODELS: 'false' })
    const token = await signIn(server.url)
    const listed = (await (await callServer(server.url, token, 'GET', '/configurators')).json()) as {
      UUID: string
      name: string
    }[]
    const names = new Map(listed.map(({ UUID, name }) => [UUID, name]))
    for (const [id, name] of acknowledged.configurators) expect(names.get(id), `configurator ${name}`).toBe(name)
    for (const [id, width] of acknowledged.sessions) {
      const parameters = (await (
        await callServer(server.url, token, 'GET', `/configsessions/${id}/parameters`)
      ).json()) as Record<string, { value: unknown }>
      expect(parameters.width?.value, `session ${id}`).toBe(width)
    }
    for (const id of acknowledged.snapshots)
      expect((await callServer(server.url, token, 'GET', `/snapshots/${id}`)).status, `snapshot ${id}`).toBe(200)
    const libraries = (await (await callServer(server.url, token, 'GET', '/libraries')).json()) as { name: string }[]
    expect(libraries.map(({ name }) => name)).toEqual(expect.arrayContaining([...acknowledged.libraries]))
    expect(acknowledged.sessions.size).toBeGreaterThan(0)
    expect(acknowledged.snapshots.size).toBeGreaterThan(0)
    expect(acknowledged.libraries.size).toBeGreaterThan(0)
  })

  it('says how to restore a backup when its files cannot be opened', async () => {
    const damaged = tempDir()
    const first = await startServer({ DATA_DIR: damaged, SEED_DEMO: 'false', PREPARE_MODELS: 'false' })
    await stopServer(first)
    fs.writeFileSync(path.join(damaged, 'db', 'global', 'pg_control'), 'not a control file')
    const failed = await startServer({ DATA_DIR: damaged, SEED_DEMO: 'false' }).then(
      () => 'started',
      (error: Error) => error.message,
    )
    expect(failed).toMatch(
      /paraform: cannot prepare the embedded database: .*could not be opened .*npm run restore -- <backup\.zip>/,
    )
  })
})
