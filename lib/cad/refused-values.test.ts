import { describe, expect, it } from 'vitest'
import type { ParameterDefinition, ParameterValue } from '@/lib/cad/engine'
import { type Budget, searchParameter, type Verdict } from '@/lib/cad/refused-values'

// The search alone, against rules written as functions: the engine's evaluation is tested with
// the real engine (test/api/refused-values.test.ts).

const base = { group: '', caption: '' }
const hole: ParameterDefinition = { ...base, key: 'hole', kind: 'number', default: 10, min: 1, max: 100, step: 1 }
const plenty = (): Budget => ({ evaluations: 1000, deadline: Number.POSITIVE_INFINITY })

/** An evaluator of rules, counting its evaluations. */
function rules(...checks: ((value: ParameterValue) => string | null)[]) {
  const evaluated: ParameterValue[] = []
  const evaluate = async (value: ParameterValue): Promise<Verdict> => {
    evaluated.push(value)
    const message = checks.map((check) => check(value)).find((said) => said !== null)
    return message ? { refused: true, message } : { refused: false }
  }
  return { evaluate, evaluated }
}

describe('searching a parameter for refused values', () => {
  it('finds a range exact to the step at both ends, with few evaluations', async () => {
    const { evaluate, evaluated } = rules((value) =>
      (value as number) > 40 - 8 ? 'The hole must leave a 4 mm rim' : null,
    )
    const { refusals, complete } = await searchParameter(hole, 10, evaluate, plenty())
    expect(complete).toBe(true)
    expect(refusals).toEqual({
      searched: true,
      ranges: [{ from: 33, to: 100, message: 'The hole must leave a 4 mm rim' }],
      options: [],
    })
    // 17 samples, then a bisection of one change over a spacing of about 6 steps.
    expect(evaluated.length).toBeLessThanOrEqual(17 + 3)
    expect(evaluated).toContain(32)
    expect(evaluated).toContain(33)
  })

  it('gives each rule its own range and message, and fractional steps exactly', async () => {
    const width: ParameterDefinition = { ...base, key: 'w', kind: 'number', default: 5, min: 0, max: 20, step: 0.5 }
    const { evaluate } = rules(
      (value) => ((value as number) < 2.5 ? 'Too thin to print' : null),
      (value) => ((value as number) > 17 ? 'Wider than the lid' : null),
    )
    const { refusals } = await searchParameter(width, 5, evaluate, plenty())
    expect(refusals).toMatchObject({
      ranges: [
        { from: 0, to: 2, message: 'Too thin to print' },
        { from: 17.5, to: 20, message: 'Wider than the lid' },
      ],
    })
  })

  it('says a map cut short by its budget is incomplete, and claims nothing it did not evaluate', async () => {
    const { evaluate } = rules((value) => ((value as number) > 32 ? 'Too large' : null))
    const { refusals, complete } = await searchParameter(hole, 10, evaluate, { evaluations: 18, deadline: Infinity })
    expect(complete).toBe(false)
    const [range] = (refusals as { ranges: { from: number; to: number }[] }).ranges
    // The change lies between two samples 6 steps apart; one bisection took it to within 3.
    expect(range!.from).toBeGreaterThan(33)
    expect(range!.to).toBe(100)
  })

  it('tries every option of a choice and both booleans, and every component of a vector', async () => {
    const shape: ParameterDefinition = {
      ...base,
      key: 'shape',
      kind: 'choice',
      default: 'round',
      options: ['round', 'square', 'star'].map((value) => ({ value, label: value })),
    }
    const star = rules((value) => (value === 'star' ? 'A star needs a larger size' : null))
    expect((await searchParameter(shape, 'round', star.evaluate, plenty())).refusals).toEqual({
      searched: true,
      ranges: [],
      options: [{ value: 'star', message: 'A star needs a larger size' }],
    })
    const lid: ParameterDefinition = { ...base, key: 'lid', kind: 'bool', default: false }
    const noLid = rules((value) => (value === true ? 'No lid at this size' : null))
    expect((await searchParameter(lid, false, noLid.evaluate, plenty())).refusals).toMatchObject({
      options: [{ value: true, message: 'No lid at this size' }],
    })
    const size: ParameterDefinition = {
      ...base,
      key: 'size',
      kind: 'vector',
      default: [10, 10],
      min: 0,
      max: 50,
      step: 1,
    }
    const square = rules((value) => {
      const [x, y] = value as number[]
      return x! > y! + 10 ? 'No longer than 10 mm past its width' : null
    })
    expect((await searchParameter(size, [10, 20], square.evaluate, plenty())).refusals).toEqual({
      searched: true,
      components: [{ ranges: [{ from: 31, to: 50, message: 'No longer than 10 mm past its width' }] }, { ranges: [] }],
    })
  })

  it('says which parameters it cannot search and why', async () => {
    const text: ParameterDefinition = { ...base, key: 't', kind: 'string', default: '', maxLength: null }
    const open: ParameterDefinition = { ...hole, min: null, max: null }
    const { evaluate, evaluated } = rules(() => null)
    expect((await searchParameter(text, '', evaluate, plenty())).refusals).toEqual({
      searched: false,
      reason: 'a text has no range to search',
    })
    expect((await searchParameter(open, 1, evaluate, plenty())).refusals).toMatchObject({ searched: false })
    expect(evaluated).toEqual([])
  })
})
