import { describe, expect, it } from 'vitest'
import { diagnosticsOf, errorLine, failureReason } from './replicad-log'

describe('the replicad log', () => {
  const log = [
    errorLine('Error: width must be under 100', 'main.js', 12, 9),
    'WARNING: the fillet was made smaller (main.js:4)',
    errorLine('TypeError: x is not a function', 'parts.js', 3),
  ].join('\n')

  it('gives a customer the first error without its class or place', () => {
    expect(failureReason({ message: '', error: log })).toBe('width must be under 100')
    expect(failureReason({ message: 'hello', error: '' })).toBeNull()
    expect(failureReason({ message: '', error: errorLine('the build ran out of memory', 'main.js') })).toBe(
      'the build ran out of memory',
    )
  })

  it('places problems on the lines of the open file', () => {
    expect(diagnosticsOf(log, 'configurator/main.js')).toEqual([
      { line: 12, severity: 'error', message: 'Error: width must be under 100' },
      { line: 4, severity: 'warning', message: 'the fillet was made smaller' },
    ])
    expect(diagnosticsOf(log, 'configurator/parts.js')).toHaveLength(1)
  })
})
