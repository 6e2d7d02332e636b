import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, dropTestDatabase } from '@/test/support/postgres'
import { S3RVER_CREDENTIALS, type StartedS3rver, startS3rver } from '@/test/support/s3rver'
import { ADMIN, callServer, freePort, signIn, type StartedNpm, startNpm, tempDir } from '@/test/support/start-server'

// Debian's Prometheus scrapes two web instances and a build worker on PostgreSQL (docs/operations.md),
// and PromQL through its HTTP API counts the builds and cache answers a script of slider moves caused.

const PROMETHEUS = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus'
const TOKEN = 'metrics token for the test 0123456789'
const BUCKET = 'paraform-metrics'

const processes: StartedNpm[] = []
let prometheus: ChildProcess | undefined
let prometheusUrl: string
let databaseUrl: string
let s3: StartedS3rver
let webs: string[]
let workerMetrics: string

async function startPrometheus(targets: { web: string[]; worker: string[] }): Promise<string> {
  const dir = tempDir()
  const port = await freePort()
  const job = (name: string, hosts: string[]) =>
    `  - job_name: ${name}\n    authorization: ` +
    `{ credentials: '${TOKEN}' }\n    ` +
    `static_configs: [{ targets: ` +
    `[${hosts.map((host) => `'${host}'`).join(', ')}] }]\n`
  fs.writeFileSync(
    path.join(dir, 'prometheus.yml'),
    `global: { scrape_interval: 1s }\nscrape_configs:\n${job('web', targets.web)}${job('worker', targets.worker)}`,
  )
  let output = ''
  prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${dir}/prometheus.yml`,
      `--storage.tsdb.path=${dir}/data`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  prometheus.stderr!.on('data', (chunk) => (output += chunk))
  const url = `http://127.0.0.1:${port}`
  await until(
    `Prometheus ready (${output})`,
    async () => (await fetch(`${url}/-/ready`).catch(() => null))?.status === 200,
  )
  return url
}

/** A PromQL query's single number (summed over its series), evaluated now. */
async function promql(query: string): Promise<number> {
  const response = await fetch(`${prometheusUrl}/api/v1/query?${new URLSearchParams({ query })}`)
  const { data } = (await response.json()) as { data: { result: { value: [number, string] }[] } }
  return data.result.reduce((sum, { value }) => sum + Number(value[1]), 0)
}

/** Waits for two scrapes of every target after now, so that the queries see all that happened before. */
async function scraped(): Promise<void> {
  const since = Date.now() / 1000
  await until('every target scraped again', async () => {
    const response = await fetch(`${prometheusUrl}/api/v1/targets`)
    const { data } = (await response.json()) as { data: { activeTargets: { health: string; lastScrape: string }[] } }
    return (
      data.activeTargets.length === 3 &&
      data.activeTargets.every((target) => target.health === 'up' && Date.parse(target.lastScrape) / 1000 > since + 1)
    )
  })
}

async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await check()); await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (Date.now() > deadline)
      throw new Error(`${what} did not happen:\n${processes.map((started) => started.output()).join('\n---\n')}`)
  }
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase()
  s3 = await startS3rver(tempDir(), BUCKET)
  const shared = {
    DATABASE_URL: databaseUrl,
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    ...S3RVER_CREDENTIALS,
    PREPARE_MODELS: 'false',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    METRICS_TOKEN: TOKEN,
  }
  const webPorts = [await freePort(), await freePort()]
  const metricsPort = await freePort()
  const started = await Promise.all([
    ...webPorts.map((port) =>
      startNpm(['start'], { ...shared, DATA_DIR: tempDir(), BUILD_WORKERS: '0', PORT: String(port) }, 'listening on'),
    ),
    startNpm(
      ['run', 'worker'],
      { ...shared, DATA_DIR: tempDir(), BUILD_WORKERS: '1', METRICS_PORT: String(metricsPort) },
      'running up to',
    ),
  ])
  processes.push(...started)
  webs = webPorts.map((port) => `127.0.0.1:${port}`)
  workerMetrics = `127.0.0.1:${metricsPort}`
  prometheusUrl = await startPrometheus({ web: webs, worker: [workerMetrics] })
})

afterAll(async () => {
  for (const started of processes)
    if (started.child.exitCode === null && started.child.signalCode === null) started.kill('SIGKILL')
  prometheus?.kill('SIGKILL')
  await s3?.close()
  await dropTestDatabase(databaseUrl)
})

describe('Prometheus scraping two web instances and a worker', () => {
  it('answers only its bearer token', async () => {
    for (const target of [...webs, workerMetrics]) {
      expect((await fetch(`http://${target}/metrics`)).status).toBe(401)
      expect(
        (await fetch(`http://${target}/metrics`, { headers: { authorization: 'Bearer not the token' } })).status,
      ).toBe(401)
      const metrics = await fetch(`http://${target}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
      expect(metrics.status).toBe(200)
      expect(await metrics.text()).toMatch(/^process_cpu_seconds_total \d/m)
    }
  })

  it('counts the builds and cache answers of scripted slider moves, as the answers themselves say', async () => {
    const [a, b] = webs.map((host) => `http://${host}`) as [string, string]
    const token = await signIn(a)
    const { UUID: configuratorId } = (await (
      await callServer(a, token, 'POST', '/configurators', { name: 'Measured', mainFile: 'main.scad' })
    ).json()) as { UUID: string }
    expect(
      (
        await callServer(
          a,
          token,
          'PUT',
          `/configurators/${configuratorId}/files/configurator/main.scad`,
          'width = 40; // [10:1:100]\ncube([width, 20, 10]);\n',
        )
      ).status,
    ).toBe(202)
    const { id: sessionId } = (await (
      await callServer(b, token, 'POST', '/configsessions', { configuratorId })
    ).json()) as { id: string }
    // Opening a session starts its first model: built and counted before the script's moves are.
    expect((await callServer(b, token, 'GET', `/configsessions/${sessionId}/model`)).status).toBe(200)
    await scraped()
    const query = {
      builds: 'sum(paraform_builds_total{kind="build",outcome="built"})',
      misses: 'sum(paraform_build_cache_answers_total{answer="miss"})',
      hits: 'sum(paraform_build_cache_answers_total{answer=~"memory|stored|joined"})',
      models: 'sum(paraform_http_requests_total{operation="getModel",status="200"})',
    }
    const before = Object.fromEntries(
      await Promise.all(Object.entries(query).map(async ([name, promQl]) => [name, await promql(promQl)] as const)),
    )

    // Slider moves to new widths, then back to widths built before, alternating instances: each
    // model's answer says whether the engine built it (x-build-cache: built) or a cache answered.
    const widths = [50, 60, 70, 50, 60, 80, 70]
    const answers: string[] = []
    for (const [index, width] of widths.entries()) {
      const web = index % 2 === 0 ? a : b
      expect(
        (await callServer(web, token, 'PUT', `/configsessions/${sessionId}/parameters`, { width: { value: width } }))
          .status,
      ).toBe(200)
      const model = await callServer(web, token, 'GET', `/configsessions/${sessionId}/model`)
      expect(model.status).toBe(200)
      answers.push(model.headers.get('x-build-cache')!)
    }
    const built = new Set(widths).size
    // A width seen before is never built again. A new one was built by its PUT: its GET joined that
    // build, or, on a loaded machine whose PUT answered late, found it ended and in memory.
    const isNew = widths.map((width, index) => widths.indexOf(width) === index)
    expect(answers.filter((answer, index) => !isNew[index] && answer === 'built')).toEqual([])
    expect(answers.filter((answer, index) => isNew[index] && ['built', 'memory'].includes(answer))).toHaveLength(built)

    await scraped()
    const after = Object.fromEntries(
      await Promise.all(Object.entries(query).map(async ([name, promQl]) => [name, await promql(promQl)] as const)),
    )
    expect(after.builds! - before.builds!).toBe(built)
    expect(after.misses! - before.misses!).toBe(built)
    expect(after.models! - before.models!).toBe(widths.length)
    // Every model asked for is one answer: the PUT starts the build its GET then joins or finds.
    expect(after.hits! - before.hits! + (after.misses! - before.misses!)).toBe(2 * widths.length)
    // The engine's time and the queue wait of each build, observed by the worker.
    expect(await promql('sum(paraform_build_engine_seconds_count{kind="build"})')).toBeGreaterThanOrEqual(built)
    expect(await promql('sum(paraform_build_slots{state=~"busy|free"})')).toBeGreaterThanOrEqual(1)
  })
})
