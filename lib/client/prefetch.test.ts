import { describe, expect, it } from 'vitest'
import { sliderCandidates } from '@/lib/client/prefetch'

describe('sliderCandidates', () => {
  it('candidates where the thumb is, two steps onward and one back', () => {
    expect(sliderCandidates({ min: 10, max: 100, step: 1 }, 40, 38)).toEqual([40, 41, 42, 39])
    expect(sliderCandidates({ min: 10, max: 100, step: 1 }, 40, 43)).toEqual([40, 39, 38, 41])
  })

  it('writes decimal steps as the slider does, without binary noise', () => {
    expect(sliderCandidates({ min: 0, max: 1, step: 0.1 }, 0.7, 0.6)).toEqual([0.7, 0.8, 0.9, 0.6])
    expect(sliderCandidates({ min: 0.5, max: 3, step: 0.25 }, 1.25, undefined)).toEqual([1.25, 1.5, 1.75, 1])
  })

  it('stays within the range and on its grid', () => {
    expect(sliderCandidates({ min: 10, max: 100, step: 5 }, 100, 95)).toEqual([100, 95])
    expect(sliderCandidates({ min: 10, max: 100, step: 5 }, 12, 15)).toEqual([10, 15])
  })

  it('candidates nothing without a full range', () => {
    expect(sliderCandidates({ min: null, max: 100, step: 1 }, 40, 38)).toEqual([])
    expect(sliderCandidates({ min: 0, max: 100, step: null }, 40, 38)).toEqual([])
  })
})
