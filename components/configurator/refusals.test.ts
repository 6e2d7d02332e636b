import { describe, expect, it } from 'vitest'
import { isSearching, refusalOf, refusalsAt, withMap } from '@/components/configurator/refusals'
import { SEARCHING_REASON } from '@/lib/cad/refused-values-schema'

const RIM = 'The hole must leave a 4 mm rim'
const holeMap = { searched: true as const, ranges: [{ from: 33, to: 100, message: RIM }], options: [] }
const map = {
  complete: false,
  values: { size: 40, hole: 10, lid: 'flat', corner: [5, 5] },
  parameters: {
    size: { searched: false as const, reason: SEARCHING_REASON },
    hole: holeMap,
    lid: { searched: true as const, ranges: [], options: [{ value: 'domed', message: 'A domed lid needs 50 mm' }] },
    corner: {
      searched: true as const,
      components: [{ ranges: [{ from: 8, to: 10, message: 'too round' }] }, { ranges: [] }],
    },
  },
}

describe('the maps of refused values on the customer page', () => {
  it('keeps what was searched, and asks again while a search runs', () => {
    expect(isSearching(map)).toBe(true)
    const known = withMap({}, map)
    expect(Object.keys(known).sort()).toEqual(['corner', 'hole', 'lid'])
    expect(isSearching({ ...map, parameters: { hole: holeMap } })).toBe(false)
  })

  it("holds a parameter's map while it moves alone, and drops it when another parameter moves", () => {
    const known = withMap({}, map)
    const moved = refusalsAt(known, { ...map.values, hole: 35 })
    expect(refusalOf(moved.hole, 'hole', 35)).toBe(RIM)
    expect(refusalOf(moved.hole, 'hole', 32)).toBeNull()
    expect(refusalOf(moved.hole, 'hole', 100)).toBe(RIM)
    const resized = refusalsAt(known, { ...map.values, size: 60 })
    expect(resized.hole).toBeUndefined()
    expect(refusalOf(resized.hole, 'hole', 35)).toBeNull()
  })

  it('refuses options by value and vector components while the others are held', () => {
    const known = refusalsAt(withMap({}, map), map.values)
    expect(refusalOf(known.lid, 'lid', 'domed')).toBe('A domed lid needs 50 mm')
    expect(refusalOf(known.lid, 'lid', 'flat')).toBeNull()
    expect(refusalOf(known.corner, 'corner', [9, 5])).toBe('too round')
    expect(refusalOf(known.corner, 'corner', [5, 9])).toBeNull()
    // Both components moved: the first's map was searched with the second at 5, so it cannot tell.
    expect(refusalOf(known.corner, 'corner', [9, 6])).toBeNull()
  })
})
