import fs from 'node:fs'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { COUNT_TO_N } from '@/test/support/models'
import { createTestDatabase, dropTestDatabase } from '@/test/support/postgres'
import { DEAD_AFTER_MS } from '@/lib/queue/worker-heartbeat'
import { S3RVER_CREDENTIALS, type StartedS3rver, startS3rver } from '@/test/support/s3rver'
import { ADMIN, freePort, signIn, type StartedNpm, startNpm, tempDir } from '@/test/support/start-server'

// The deployment of docs/deploy.md on one machine: two web instances (BUILD_WORKERS=0, each its
// own DATA_DIR as on two machines) and two `npm run worker` processes, on one PostgreSQL
// database and one S3-compatible bucket (a real s3rver on loopback).

const BUCKET = 'paraform-deploy'
const BUILD_TIME_LIMIT_SECONDS = 20

interface Web extends StartedNpm {
  url: string
}

let databaseUrl: string
let s3: StartedS3rver
let s3Dir: string
let shared: Record<string, string>
const processes: StartedNpm[] = []
/** Every status any instance answered, to find a 5xx. */
const statuses: number[] = []

async function startWeb(env: Record<string, string> = {}): Promise<Web> {
  const port = await freePort()
  const web = await startNpm(
    ['start'],
    { ...shared, DATA_DIR: tempDir(), BUILD_WORKERS: '0', PORT: String(port), ...env },
    'listening on',
  )
  processes.push(web)
  return { ...web, url: `http://127.0.0.1:${port}` }
}

async function startWorker(): Promise<StartedNpm & { id: string }> {
  const worker = await startNpm(
    ['run', 'worker'],
    { ...shared, DATA_DIR: tempDir(), BUILD_WORKERS: '1' },
    'running up to',
  )
  processes.push(worker)
  return { ...worker, id: /build worker (\S+) running/.exec(worker.output())![1]! }
}

async function call(web: Web, method: string, path: string, token: string, body?: unknown): Promise<Response> {
  const response = await fetch(`${web.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: typeof body === 'string' || body === undefined ? body : JSON.stringify(body),
  })
  statuses.push(response.status)
  return response
}

interface Health {
  queue: { queued: number; running: number }
  workers: { id: string; running: number }[]
}

/** Resolves once `check` holds, asking every 50 ms; fails after `ms` with every process's output. */
async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await check()); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() > deadline)
      throw new Error(`${what} did not happen:\n${processes.map((started) => started.output()).join('\n---\n')}`)
  }
}

/**
 * The fair-share flags of every build the workers run, as they wrote them when they admitted it
 * (a job graphile-worker picked while its share was full is not built: it goes back to wait).
 */
let flagsClient: pg.Client | undefined

async function runningFlags(): Promise<string[]> {
  // One connection for every sample: a connection a sample (every 25 ms) forked a database backend each time, CPU the builds measured here need.
  if (!flagsClient) {
    flagsClient = new pg.Client({ connectionString: databaseUrl })
    await flagsClient.connect()
  }
  const { rows } = await flagsClient.query<{ running: { flags: string[]; background?: boolean }[] }>(
    'SELECT running FROM "BuildWorker"',
  )
  return rows.flatMap(({ running }) => running.filter((build) => !build.background).flatMap((build) => build.flags))
}

async function health(web: Web): Promise<{ status: number; body: Health }> {
  const response = await fetch(`${web.url}/api/health`)
  return { status: response.status, body: (await response.json()) as Health }
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase()
  s3Dir = tempDir()
  s3 = await startS3rver(s3Dir, BUCKET)
  shared = {
    DATABASE_URL: databaseUrl,
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    ...S3RVER_CREDENTIALS,
    BUILD_TIME_LIMIT_SECONDS: String(BUILD_TIME_LIMIT_SECONDS),
    // Background preparation would build beside the builds this test times and counts (it is
    // tested on the queue by the API tests on PostgreSQL).
    PREPARE_MODELS: 'false',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  }
})

afterAll(async () => {
  for (const started of processes)
    if (started.child.exitCode === null && started.child.signalCode === null) started.kill('SIGKILL')
  await flagsClient?.end()
  await s3?.close()
  await dropTestDatabase(databaseUrl)
})

describe('two web instances and two build workers on one database and one bucket', () => {
  it('serve the same files, builds and sessions from every instance, survive a killed worker, and stop cleanly', async () => {
    const [a, b] = await Promise.all([startWeb(), startWeb()])
    const workers = await Promise.all([startWorker(), startWorker()])
    const token = await signIn(a.url)

    // Upload through A; open a session and build through B; read back through A.
    const { UUID: configuratorId } = (await (
      await call(a, 'POST', '/configurators', token, { name: 'Deployed', mainFile: 'main.scad' })
    ).json()) as { UUID: string }
    const source = `${COUNT_TO_N}\nwidth = 40; // [10:1:100]\ncube([width, 20, 10]);\n`
    expect(
      (await call(a, 'PUT', `/configurators/${configuratorId}/files/configurator/main.scad`, token, source)).status,
    ).toBe(202)
    const session = (await (await call(b, 'POST', '/configsessions', token, { configuratorId })).json()) as {
      id: string
    }
    const set = await call(b, 'PUT', `/configsessions/${session.id}/parameters`, token, { width: { value: 60 } })
    expect(set.status).toBe(200)
    expect(
      await (await call(a, 'GET', `/configurators/${configuratorId}/files/configurator/main.scad`, token)).text(),
    ).toBe(source)
    const info = (await (await call(a, 'GET', `/configsessions/${session.id}/objectinfo`, token)).json()) as {
      boundingBox: { minX: number; maxX: number }
    }
    expect(info.boundingBox.maxX - info.boundingBox.minX).toBeCloseTo(60)
    const model = await call(a, 'GET', `/configsessions/${session.id}/model?type=stl`, token)
    expect(model.status).toBe(200)
    expect(model.headers.get('x-build-cache')).not.toBe('built')

    // A replicad model's build and its STEP export run on the workers' sandboxes, as any build.
    const { UUID: bracketId } = (await (
      await call(a, 'POST', '/configurators', token, { name: 'Bracket', mainFile: 'main.js', cadType: 'replicad' })
    ).json()) as { UUID: string }
    const bracket = fs.readFileSync('demo/mounting-bracket/main.js', 'utf8')
    expect(
      (await call(a, 'PUT', `/configurators/${bracketId}/files/configurator/main.js`, token, bracket)).status,
    ).toBe(202)
    const bracketSession = (await (
      await call(b, 'POST', '/configsessions', token, { configuratorId: bracketId })
    ).json()) as { id: string }
    const step = await call(a, 'GET', `/configsessions/${bracketSession.id}/model?type=step`, token)
    const stepText = await step.text()
    expect(step.status, stepText.slice(0, 300)).toBe(200)
    expect(stepText.startsWith('ISO-10303-21;')).toBe(true)

    // Two workers of one slot each. A configurator alone takes both; once another configurator's
    // build waits, shares apply at the next pick: the worker freed first takes the other's build,
    // not the configurator's next one (no running build is stopped).
    const { UUID: otherId } = (await (
      await call(a, 'POST', '/configurators', token, { name: 'Other', mainFile: 'main.scad' })
    ).json()) as { UUID: string }
    expect((await call(a, 'PUT', `/configurators/${otherId}/files/configurator/main.scad`, token, source)).status).toBe(
      202,
    )
    const openOn = async (id: string) =>
      ((await (await call(b, 'POST', '/configsessions', token, { configuratorId: id })).json()) as { id: string }).id
    const [first, second, third, fourth] = [
      session.id,
      await openOn(configuratorId),
      await openOn(otherId),
      await openOn(configuratorId),
    ]
    // A PUT answers once its values are stored; the model waits for their build.
    const configure = async (web: Web, id: string, values: Record<string, number>) => {
      const body = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { value }]))
      expect((await call(web, 'PUT', `/configsessions/${id}/parameters`, token, body)).status).toBe(200)
      return call(web, 'GET', `/configsessions/${id}/model`, token)
    }
    const slowSet = (web: Web, id: string, width: number) => configure(web, id, { n: 2_500_000, width })
    const held: string[][] = []
    const sampling = setInterval(
      () =>
        void runningFlags().then(
          (flags) => held.push(flags),
          () => {},
        ),
      25,
    )
    onTestFinished(() => clearInterval(sampling))
    const ofConfigurator = (flags: string[]) => flags.filter((flag) => flag === `configurator:${configuratorId}`).length
    const slowSets = [slowSet(b, first, 41), slowSet(a, second, 42)]
    await until('both builds of the configurator running', async () => ofConfigurator(await runningFlags()) === 2)
    slowSets.push(slowSet(b, third, 43))
    await until("the other configurator's build waiting", async () => (await health(a)).body.queue.queued === 1)
    slowSets.push(slowSet(a, fourth, 44))
    await until('its next build waiting too', async () => (await health(a)).body.queue.queued === 2)
    const waitingSince = held.length
    await until("the other configurator's build running", async () =>
      (await runningFlags()).includes(`configurator:${otherId}`),
    )
    expect((await Promise.all(slowSets)).map((response) => response.status)).toEqual([200, 200, 200, 200])
    clearInterval(sampling)
    // While the other's build waited, a worker the configurator freed never went back to it.
    const beforeOther = held
      .slice(waitingSince)
      .filter(
        (_, index, samples) => !samples.slice(0, index + 1).some((flags) => flags.includes(`configurator:${otherId}`)),
      )
      .map(ofConfigurator)
    expect(beforeOther).toEqual([...beforeOther].sort((x, y) => y - x))

    // A build of a few seconds; the worker that takes it is killed, the other one finishes it.
    const slow = configure(a, session.id, { n: 3_000_000 })
    let running: Health['workers'][number] | undefined
    await until(
      'a worker taking the build',
      async () => !!(running = (await health(b)).body.workers.find((worker) => worker.running > 0)),
    )
    const victim = workers.find((worker) => worker.id === running!.id)!
    const killedAt = performance.now()
    victim.kill('SIGKILL')
    expect((await slow).status).toBe(200)
    expect(performance.now() - killedAt).toBeLessThan((BUILD_TIME_LIMIT_SECONDS + 30) * 1000)
    // Gone from the list once its heartbeat is older than DEAD_AFTER_MS (the build it held waited
    // that long; a prefetch it held instead did not hold the build up).
    const survivor = workers.find((worker) => worker !== victim)!.id
    await until(
      'the killed worker leaving the list',
      async () =>
        JSON.stringify((await health(a)).body.workers.map((worker) => worker.id)) === JSON.stringify([survivor]),
      DEAD_AFTER_MS + 5000,
    )
    // The job leaves graphile-worker's table just after its notice went out.
    const idle = async () => (await health(a)).body.queue.running === 0
    await until('the job leaving the queue', idle, 5000)
    expect((await health(a)).body.queue).toMatchObject({ queued: 0, running: 0 })

    // The same answers from both instances.
    const [fromA, fromB] = await Promise.all(
      [a, b].map(async (web) => (await call(web, 'GET', `/configsessions/${session.id}/parameters`, token)).json()),
    )
    expect(fromA).toEqual(fromB)

    // A newer PUT through B supersedes an older one through A: the older build (which would run
    // to the time limit, and hold the session's turn on the one worker left) stops at once, and
    // the model is the newest state's, the older one's changes in it.
    const valuesOf = async (response: Response) => {
      expect(response.status).toBe(200)
      const parameters = (await response.json()) as Record<string, { value: unknown }>
      return { n: parameters.n?.value, width: parameters.width?.value }
    }
    const older = await call(a, 'PUT', `/configsessions/${session.id}/parameters`, token, {
      n: { value: 1e12 },
      width: { value: 55 },
    })
    expect(await valuesOf(older)).toEqual({ n: 1e12, width: 55 })
    await until('a worker taking the older build', async () => !(await idle()))
    expect(
      await valuesOf(await call(b, 'PUT', `/configsessions/${session.id}/parameters`, token, { n: { value: 0 } })),
    ).toEqual({ n: 0, width: 55 })
    await until('the cancelled build leaving the queue', idle, 5000)
    expect((await call(a, 'GET', `/configsessions/${session.id}/objectinfo`, token)).status).toBe(200)

    // A token revoked through one instance is refused by the other, which remembered it, as soon as the notice arrives.
    const revoked = await signIn(a.url)
    expect((await call(b, 'GET', `/configurators/${configuratorId}`, revoked)).status).toBe(200)
    expect(
      (await fetch(`${a.url}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${revoked}` } }))
        .status,
    ).toBeLessThan(300)
    await until(
      'the other instance refusing the revoked token',
      async () => (await call(b, 'GET', `/configurators/${configuratorId}`, revoked)).status === 401,
      2000,
    )

    // The bucket goes away: 503 with a reason, and back to 200 once it returns.
    await s3.close()
    const down = await fetch(`${a.url}/api/health`)
    expect(down.status).toBe(503)
    expect(await down.json()).toEqual({
      error: { code: 'service_unavailable', message: 'The storage cannot be reached' },
    })
    const missingFile = await fetch(`${b.url}/api/configurators/${configuratorId}/files/configurator/main.scad`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(missingFile.status).toBe(503)
    expect(await missingFile.json()).toEqual({
      error: { code: 'service_unavailable', message: 'The file store cannot be reached; try again later' },
    })
    s3 = await startS3rver(s3Dir, BUCKET, s3.port)
    expect((await health(a)).status).toBe(200)
    expect(
      await (await call(b, 'GET', `/configurators/${configuratorId}/files/configurator/main.scad`, token)).text(),
    ).toBe(source)

    expect(statuses.filter((status) => status >= 500)).toEqual([])

    // SIGTERM: every process finishes what it does and exits 0.
    const survivors = [a, b, ...workers.filter((worker) => worker !== victim)]
    for (const started of survivors) started.child.kill('SIGTERM')
    expect(await Promise.all(survivors.map((started) => started.exited))).toEqual(survivors.map(() => 0))
  })

  it('refuses a third instance that would keep its files on its own disk', async () => {
    const { S3_BUCKET: _bucket, S3_ENDPOINT: _endpoint, ...onDisk } = shared
    const misconfigured = startNpm(
      ['start'],
      { ...onDisk, DATA_DIR: tempDir(), PORT: String(await freePort()) },
      'listening on',
    )
    await expect(misconfigured).rejects.toThrow(/exited with 1/)
    await expect(misconfigured).rejects.toThrow(/paraform: .*s3:\/\/paraform-deploy/)
  })
})
