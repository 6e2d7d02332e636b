import { describe, expect, it } from 'vitest'
import { api } from '@/test/support/api-client'
import { openSession } from '@/test/support/fixtures'
import { ZLog } from '@/lib/sessions/schemas'

const CAP = 1024 * 1024
const CUT_LINE = /\n\.\.\. \d+(\.\d)? (KB|MB) \((\d+) lines\) cut$/

// 80 000 echoed lines (about 2.6 MB), then the assertion that makes the build fail.
const FLOOD = `
lines = 80000; // [1:1:80000]
for (i = [1:lines]) echo(str("line ", i, " of the flood"));
assert(lines < 0, "the reason the build failed");
cube(1);
`

describe('a model that prints more than a log holds', () => {
  it('stores at most 1 MB of its echoes, says how much was cut and keeps the error after the flood', async () => {
    const { session, token } = await openSession(FLOOD)
    const put = await api('PUT', `/configsessions/${session.id}/parameters`, { token, body: {} })
    expect(put.status).toBe(200)

    const response = await api('GET', `/configsessions/${session.id}/log`, { token })
    expect(response.status).toBe(200)
    const log = ZLog.parse(await response.json())
    expect(Buffer.byteLength(log.message)).toBeLessThanOrEqual(CAP)
    expect(log.message).toMatch(/^ECHO: "line 1 of the flood"\nECHO: "line 2 of the flood"\n/)
    expect(log.message).toMatch(CUT_LINE)
    const [, , , count] = CUT_LINE.exec(log.message)!
    const kept = log.message.split('\n').length - 1
    expect(kept + Number(count)).toBe(80000)
    expect(log.error).toMatch(/Assertion .* failed.*the reason the build failed/)
  }, 120_000)
})
