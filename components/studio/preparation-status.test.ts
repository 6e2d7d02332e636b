import { describe, expect, it } from 'vitest'
import { describeBuilds, describeRefusals } from '@/components/studio/preparation-status'

describe("the preparation's count of what built", () => {
  it('says what built and what did not, never that a failed model built', () => {
    expect(describeBuilds(1, 0)).toBe('1 model (the defaults) built.')
    expect(describeBuilds(1, 1)).toBe('the defaults did not build:')
    expect(describeBuilds(3, 0)).toBe('3 models (the defaults and each preset) built.')
    expect(describeBuilds(3, 1)).toBe('2 of 3 models (the defaults and each preset) built, 1 did not:')
    expect(describeBuilds(3, 3)).toBe('none of 3 models (the defaults and each preset) built:')
  })
})

describe("the preparation's maps of refused values", () => {
  const RIM = 'The hole must leave a 4 mm rim'
  const at = (build: string, hole: number, from: number) => ({
    build,
    complete: true,
    values: { size: 40, hole, label: 'A' },
    parameters: {
      size: { searched: true as const, ranges: [], options: [] },
      hole: { searched: true as const, ranges: [{ from, to: 100, message: RIM }], options: [] },
      label: { searched: false as const, reason: 'a text has no range to search' },
    },
  })

  it("says the defaults' ranges, names a preset the model refuses, and what was not searched", () => {
    expect(
      describeRefusals([at('the defaults', 10, 33), at('preset Wide', 40, 33), at('preset Small', 8, 33)]),
    ).toEqual({
      refused: [`hole: 33–100 refused at the defaults: ${RIM}`],
      presets: [`The preset Wide sits where the model refuses values (hole = 40): ${RIM}`],
      unsearched: ['label: a text has no range to search'],
    })
  })

  it('says a search cut short', () => {
    expect(describeRefusals([{ ...at('the defaults', 10, 33), complete: false }]).refused).toEqual([
      `hole: 33–100 refused at the defaults (the search was cut short): ${RIM}`,
    ])
  })
})
