import { describe, expect, it } from 'vitest'
import { minorDigits, roundHalfUp, slicedPrice } from '@/lib/manufacturing/print-report'

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

  it("of a sliced model: the hours at the rate, each extruder's grams shared among its parts by their solid weight", () => {
    const material = (pricePerKg: number | null) => ({ name: 'PLA', density: 1.24, pricePerCm3: null, pricePerKg })
    const print = {
      forSale: true,
      parts: [
        { index: 0, volume: 3000, weight: 3, material: material(20) },
        { index: 1, volume: 1000, weight: 1, material: material(100) },
        { index: 2, volume: 1000, weight: 1, material: material(null) },
      ],
    }
    const settings = { currency: 'EUR', basePrice: 1, pricePerHour: 3 }
    // One extruder prints 10 g: parts 0, 1, 2 get 6, 2 and 2 g. 1 + 1.5 h × 3 + 0.006 × 20 + 0.002 × 100.
    const oneExtruder = slicedPrice(
      settings,
      print,
      { materials: [{ extruder: 1, weightG: 10 }], printTimeSeconds: 5400 },
      1,
    )
    expect(oneExtruder).toEqual({ amount: '5.82', currency: 'EUR' })
    // Two: parts 0 and 2 on the first (8 g: 6 and 2), part 1 alone on the second (4 g).
    const twoExtruders = slicedPrice(
      settings,
      print,
      {
        materials: [
          { extruder: 1, weightG: 8 },
          { extruder: 2, weightG: 4 },
        ],
        printTimeSeconds: 5400,
      },
      2,
    )
    expect(twoExtruders).toEqual({ amount: (1 + 4.5 + 0.12 + 0.4).toFixed(2), currency: 'EUR' })
    expect(slicedPrice(settings, { ...print, forSale: false }, { materials: [], printTimeSeconds: 0 }, 1)).toBeNull()
    expect(slicedPrice({}, print, { materials: [], printTimeSeconds: 0 }, 1)).toBeNull()
  })
})
