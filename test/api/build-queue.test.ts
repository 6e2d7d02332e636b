import { describe, expect, it } from 'vitest'
import { db } from '@/lib/db'
import { hostFonts } from '@/lib/cad/fonts/host-fonts'
import { type JobOwner, queueCounts, runQueued, workerUtils } from '@/lib/queue/build-queue'
import { CAD_TASK } from '@/lib/queue/cad-tasks'
import { BEAT_MS, Heartbeat } from '@/lib/queue/worker-heartbeat'

const NO_WORKER = {
  code: 'service_unavailable',
  message: 'No build worker is running; start one with `npm run worker`',
}

function buildJob(name: string) {
  return {
    kind: 'build' as const,
    key: `${name}-${crypto.randomUUID()}`,
    cadType: 'openscad',
    cadVersion: '2025.07',
    mainFile: 'main.scad',
    files: [],
    libraries: [],
    fontsHash: hostFonts().hash,
    limits: { timeLimitMs: 10_000, memoryLimitBytes: 256 * 1024 * 1024 },
    values: {},
    overrides: {},
  }
}

function ownerOf(customerId: string): JobOwner {
  return { sessionId: crypto.randomUUID(), customerId, configuratorId: 'none', applicationId: null }
}

async function queuedJob(key: string) {
  const rows = await db.$queryRaw<
    { priority: number; task_identifier: string; flags: Record<string, true> }[]
  >`SELECT priority, task_identifier, flags FROM graphile_worker.jobs WHERE key = ${key}`
  return rows[0] ?? null
}

// This file's database has no build worker: nothing here starts one (runSessionJob would).
describe.runIf(process.env.TEST_DB === 'postgres')('the build queue without a worker', () => {
  it('answers 503 once it sees no live worker, and takes the job out of the queue', async () => {
    const job = buildJob('no-worker')
    const owner = ownerOf('customer')
    const started = performance.now()
    await expect(runQueued({ job, owner })).rejects.toMatchObject(NO_WORKER)
    expect(performance.now() - started).toBeGreaterThanOrEqual(BEAT_MS - 50)
    await expect.poll(queueCounts).toEqual({ queued: 0, running: 0 })
  })

  it('queues a candidate as background work, one at a time in a lane of its own, and drops it when given up', async () => {
    const job = buildJob('candidate')
    const giveUp = new AbortController()
    const candidate = runQueued({ job, owner: { ...ownerOf('c1'), background: true, prefetch: true } }, giveUp.signal)
    await expect
      .poll(() => queuedJob(job.key))
      .toMatchObject({ priority: 10, task_identifier: 'cad-background', flags: { 'turn:prefetch:customer:c1': true } })
    giveUp.abort(new Error('superseded'))
    await expect(candidate).rejects.toThrow('superseded')
    await expect.poll(() => queuedJob(job.key)).toBeNull()
  })

  it('moves a waiting candidate to the front when a customer asks for the same build, and keeps it when the candidate is given up', async () => {
    const job = buildJob('promoted')
    const giveUp = new AbortController()
    const candidate = runQueued({ job, owner: { ...ownerOf('c2'), background: true, prefetch: true } }, giveUp.signal)
    await expect.poll(() => queuedJob(job.key)).toMatchObject({ priority: 10 })
    const asked = runQueued({ job, owner: ownerOf('c2') })
    await expect
      .poll(() => queuedJob(job.key))
      .toMatchObject({ priority: 0, task_identifier: 'cad', flags: { 'turn:customer:c2': true } })
    giveUp.abort(new Error('superseded'))
    await expect(candidate).rejects.toThrow('superseded')
    // Still there for the customer, who then learns that no worker runs it.
    expect(await queuedJob(job.key)).toMatchObject({
      priority: 0,
      task_identifier: 'cad',
      flags: { 'turn:customer:c2': true },
    })
    await expect(asked).rejects.toMatchObject(NO_WORKER)
  })
})

describe.runIf(process.env.TEST_DB === 'postgres')('fair shares across workers', () => {
  it.each([
    { waiting: 'nobody else', admitted: 4 },
    { waiting: "another configurator's customer", admitted: 2 },
  ])(
    "admits a configurator's builds to every worker while $waiting waits, however many decide at once",
    async ({ admitted, waiting }) => {
      const workers = [new Heartbeat(1), new Heartbeat(1), new Heartbeat(1), new Heartbeat(1)]
      await Promise.all(workers.map((worker) => worker.start()))
      const other = `other-${crypto.randomUUID()}`
      const utils = await workerUtils()
      if (waiting !== 'nobody else')
        await utils.addJob(CAD_TASK, {}, { jobKey: other, flags: [`configurator:${crypto.randomUUID()}`] })
      try {
        const configurator = `configurator:${crypto.randomUUID()}`
        // Four workers, one slot each: half is two.
        const admissions = await Promise.all(
          workers.map((worker, index) =>
            worker.admit({ key: `share-${index}-${crypto.randomUUID()}`, flags: [configurator] }),
          ),
        )
        expect(admissions.filter(Boolean)).toHaveLength(admitted)
        // Background work holds no share.
        expect(
          await workers[3]!.admit({
            key: `background-${crypto.randomUUID()}`,
            flags: [configurator],
            background: true,
          }),
        ).toBe(true)
      } finally {
        await utils.withPgClient((client) => client.query('SELECT graphile_worker.remove_job($1)', [other]))
        await Promise.all(workers.map((worker) => worker.stop()))
      }
    },
  )
})
