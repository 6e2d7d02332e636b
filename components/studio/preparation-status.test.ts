import { describe, expect, it } from 'vitest'
import { describeBuilds } from '@/components/studio/preparation-status'

describe("the preparation's count of what built", () => {
  it('says what built and what did not, never that a failed model built', () => {
    expect(describeBuilds(1, 0)).toBe('1 model (the defaults) built.')
    expect(describeBuilds(1, 1)).toBe('the defaults did not build:')
    expect(describeBuilds(3, 0)).toBe('3 models (the defaults and each preset) built.')
    expect(describeBuilds(3, 1)).toBe('2 of 3 models (the defaults and each preset) built, 1 did not:')
    expect(describeBuilds(3, 3)).toBe('none of 3 models (the defaults and each preset) built:')
  })
})
