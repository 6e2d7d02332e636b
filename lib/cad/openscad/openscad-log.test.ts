import { describe, expect, it } from 'vitest'
import { LOG_CAP_BYTES, OpenscadLog } from '@/lib/cad/openscad/openscad-log'

describe('OpenscadLog', () => {
  it('keeps an error printed after a flood of warnings has filled the log', () => {
    const output = new OpenscadLog()
    for (let i = 0; i < 40_000; i++) output.add(`WARNING: warning number ${i} of a flood in file /model/main.scad, line 3`)
    output.add('ERROR: Assertion (false) failed in file /model/main.scad, line 4')
    output.add('ECHO: "after"')

    const log = output.toLog()

    expect(Buffer.byteLength(log.error)).toBeLessThanOrEqual(LOG_CAP_BYTES)
    expect(log.error).toMatch(/^WARNING: warning number 0 of a flood in file main.scad, line 3\n/)
    expect(log.error).toMatch(/\nERROR: Assertion \(false\) failed in file main.scad, line 4\n\.\.\. [\d.]+ MB \(\d+ lines\) cut$/)
    expect(log.message).toBe('ECHO: "after"')
  })
})
