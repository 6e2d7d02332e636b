import { describe, expect, it } from 'vitest'
import { hostFonts } from '@/lib/fonts/host-fonts'
import { queueCounts, runQueued } from '@/lib/queue/build-queue'
import { BEAT_MS } from '@/lib/queue/worker-heartbeat'

// This file's database has no build worker: nothing here starts one (runSessionJob would).
describe.runIf(process.env.TEST_DB === 'postgres')('the build queue without a worker', () => {
  it('answers 503 once it sees no live worker, and takes the job out of the queue', async () => {
    const job = {
      kind: 'build' as const,
      key: `no-worker-${Date.now()}`,
      cadType: 'openscad',
      mainFile: 'main.scad',
      files: [],
      libraries: [],
      fontsHash: hostFonts().hash,
      limits: { timeLimitMs: 10_000, memoryLimitBytes: 256 * 1024 * 1024 },
      values: {},
      overrides: {},
    }
    const owner = { sessionId: crypto.randomUUID(), customerId: null, configuratorId: 'none', applicationId: null }
    const started = performance.now()
    await expect(runQueued({ job, owner })).rejects.toMatchObject({ code: 'service_unavailable', message: 'No build worker is running; start one with `npm run worker`' })
    expect(performance.now() - started).toBeGreaterThanOrEqual(BEAT_MS - 50)
    await expect.poll(queueCounts).toEqual({ queued: 0, running: 0 })
  })
})
