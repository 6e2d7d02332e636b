import { describe, expect, it } from 'vitest'
import { failureReason } from '@/lib/cad/openscad/failure-reason'

const log = (error: string) => ({ message: '', error })

describe('failureReason', () => {
  it("answers the designer's message of a failed assert, unquoted", () => {
    const error =
      "WARNING: first\nERROR: Assertion '(depth <= " +
      'width)\' failed: "The shelf ' +
      'must be \\"wide\\", at ' +
      'least as deep" in file main.scad, line 4\nTRACE: ' +
      "called by 'assert' in file main.scad, line 4"
    expect(failureReason(log(error))).toBe('The shelf must be "wide", at least as deep')
  })

  it('names the rule of an assert without a message, and any other error without its file and line', () => {
    expect(failureReason(log("ERROR: Assertion '(depth <= width)' failed in file main.scad, line 4"))).toBe(
      'These values break a rule of the model: (depth <= width)',
    )
    expect(failureReason(log('ERROR: Parser error: syntax error in file main.scad, line 3'))).toBe(
      'Parser error: syntax error',
    )
  })

  it('answers nothing for a log without errors', () => {
    expect(failureReason(log('WARNING: Manifold minkowski failed (ERROR: internal), using CGAL'))).toBeNull()
  })
})
