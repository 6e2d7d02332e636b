import { describe, expect, it } from 'vitest'
import { minorDigits, roundHalfUp } from '@/lib/manufacturing/print-report'

describe('prices', () => {
  it('round halves up to the minor unit, past binary noise', () => {
    expect(roundHalfUp(1.005, 2)).toBe('1.01')
    expect(roundHalfUp(1.004999, 2)).toBe('1.00')
    expect(roundHalfUp(2.5, 0)).toBe('3')
    expect(roundHalfUp(0.1 + 0.2, 2)).toBe('0.30')
    expect(roundHalfUp(12.3455, 3)).toBe('12.346')
    expect(roundHalfUp(0, 2)).toBe('0.00')
  })

  it('use ISO 4217 minor units', () => {
    expect([minorDigits('EUR'), minorDigits('JPY'), minorDigits('BHD')]).toEqual([2, 0, 3])
  })
})
