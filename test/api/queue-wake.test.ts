import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { env } from '@/lib/env'
import { hostFonts } from '@/lib/cad/fonts/host-fonts'
import { runQueued } from '@/lib/queue/build-queue'
import { ensureBuildWorker } from '@/lib/queue/build-worker'

// graphile-worker's idle workers look for jobs when told on `jobs:insert`, else at their next poll.
describe.runIf(process.env.TEST_DB === 'postgres')('the build queue', () => {
  it("tells idle workers when a job's turn is free again, so that the customer's next job never waits for a poll", async () => {
    await ensureBuildWorker()
    const listener = new pg.Client({ connectionString: env.DATABASE_URL })
    await listener.connect()
    const notices: string[] = []
    listener.on('notification', ({ channel }) => notices.push(channel))
    await listener.query('LISTEN "jobs:insert"')
    try {
      const owner = {
        sessionId: crypto.randomUUID(),
        customerId: `wake-${crypto.randomUUID()}`,
        configuratorId: 'none',
        applicationId: null,
      }
      const jobs = 3
      for (let i = 0; i < jobs; i++) {
        const job = {
          kind: 'build' as const,
          key: `wake-${crypto.randomUUID()}`,
          cadType: 'openscad',
          cadVersion: '2025.07',
          mainFile: 'main.scad',
          files: [],
          libraries: [],
          fontsHash: hostFonts().hash,
        }
        // No files: the engine says so in the log, and the job is done all the same.
        await runQueued({
          job: {
            ...job,
            limits: { timeLimitMs: 10_000, memoryLimitBytes: 256 * 1024 * 1024 },
            values: {},
            overrides: {},
          },
          owner,
        })
      }
      // One notice when each job was added, and one when it ended and freed its customer's turn.
      await expect.poll(() => notices.length).toBe(2 * jobs)
    } finally {
      await listener.end()
    }
  })
})
