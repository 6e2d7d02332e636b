import type { OptionValue, ParameterDefinition, ParameterValue, RefusedRange, SearchResult } from './engine'

// Where a model refuses values (issue 49): for one parameter, the others held at the customer's
// values, which of its values make the model fail to evaluate (a failed assert, any error), with
// the designer's message. Numbers are sampled over their range, then every change between two
// samples is bisected to the step, so each boundary is exact; choices and booleans are tried one
// by one. Engine-neutral and pure: `evaluate` runs the model. Relative imports: worker threads load it.

/** What evaluating the model at a value said: accepted, or refused with the reason. */
export type Verdict = { refused: false } | { refused: true; message: string }

/** Evaluations left and when to stop: a map cut short by either says so. */
export interface Budget {
  evaluations: number
  deadline: number
}

/** Samples over a range before bisecting: a refused range narrower than their spacing (a 16th of the range) can be missed. */
export const SAMPLES = 17
/** The resolution of a range without a step: a thousandth of it. */
const STEPS_WITHOUT_STEP = 1000

type Evaluate = (value: ParameterValue) => Promise<Verdict>

const same = (a: Verdict, b: Verdict) =>
  a.refused === b.refused && (!a.refused || a.message === (b as typeof a).message)

class OutOfBudget extends Error {}

function spend(budget: Budget): void {
  if (budget.evaluations <= 0 || performance.now() >= budget.deadline) throw new OutOfBudget()
  budget.evaluations--
}

/** The parameter's refused values, the other values held; `evaluate` runs the model with this parameter at a value. */
export async function searchParameter(
  definition: ParameterDefinition,
  current: ParameterValue,
  evaluate: Evaluate,
  budget: Budget,
): Promise<SearchResult> {
  switch (definition.kind) {
    case 'number':
      return searchNumbers(definition, evaluate, budget)
    case 'vector': {
      const vector = current as number[]
      const components: { ranges: RefusedRange[] }[] = []
      let complete = true
      for (let index = 0; index < vector.length; index++) {
        const component = await searchNumbers(
          definition,
          (value) => evaluate(vector.map((each, k) => (k === index ? (value as number) : each))),
          budget,
        )
        if (!component.refusals.searched) return component
        components.push({ ranges: 'ranges' in component.refusals ? component.refusals.ranges : [] })
        complete &&= component.complete
      }
      return { refusals: { searched: true, components }, complete }
    }
    case 'choice':
      return searchValues(
        definition.options.map(({ value }) => value),
        evaluate,
        budget,
      )
    case 'bool':
      return searchValues([false, true], evaluate, budget)
    case 'string':
      return { refusals: { searched: false, reason: 'a text has no range to search' }, complete: true }
    case 'file':
      return { refusals: { searched: false, reason: 'a file has no range to search' }, complete: true }
  }
}

async function searchValues(values: OptionValue[], evaluate: Evaluate, budget: Budget): Promise<SearchResult> {
  const options: { value: OptionValue; message: string }[] = []
  for (const value of values) {
    try {
      spend(budget)
    } catch {
      return { refusals: { searched: true, ranges: [], options }, complete: false }
    }
    const verdict = await evaluate(value)
    if (verdict.refused) options.push({ value, message: verdict.message })
  }
  return { refusals: { searched: true, ranges: [], options }, complete: true }
}

async function searchNumbers(
  { min, max, step }: { min: number | null; max: number | null; step: number | null },
  evaluate: Evaluate,
  budget: Budget,
): Promise<SearchResult> {
  if (min === null || max === null || !(max > min))
    return {
      refusals: { searched: false, reason: 'it has no range (a slider needs a minimum and a maximum)' },
      complete: true,
    }
  const stepOf = step !== null && step > 0 ? step : (max - min) / STEPS_WITHOUT_STEP
  const last = Math.floor((max - min) / stepOf + 1e-9)
  // Values on the step's grid, as the slider offers them (12 digits: no float noise in a boundary).
  const valueAt = (index: number) => Number((min + index * stepOf).toPrecision(12))
  const known = new Map<number, Verdict>()
  const evaluateAt = async (index: number) => {
    spend(budget)
    known.set(index, await evaluate(valueAt(index)))
  }
  let complete = true
  try {
    const count = Math.min(last + 1, SAMPLES)
    for (let k = 0; k < count; k++) await evaluateAt(Math.round((k * last) / (count - 1 || 1)))
    // Bisect every change between neighbours that are not yet next to each other on the grid.
    for (;;) {
      const indices = [...known.keys()].sort((a, b) => a - b)
      const gap = indices.findIndex(
        (index, k) => k > 0 && index - indices[k - 1]! > 1 && !same(known.get(index)!, known.get(indices[k - 1]!)!),
      )
      if (gap === -1) break
      await evaluateAt(Math.floor((indices[gap - 1]! + indices[gap]!) / 2))
    }
  } catch (error) {
    if (!(error instanceof OutOfBudget)) throw error
    complete = false
  }
  return { refusals: { searched: true, ranges: rangesOf(known, valueAt), options: [] }, complete }
}

/**
 * Runs of refused neighbours with one message, from the first to the last evaluated: a value
 * between two evaluated ones counts as theirs only when they agree (the samples' spacing).
 */
function rangesOf(known: Map<number, Verdict>, valueAt: (index: number) => number): RefusedRange[] {
  const ranges: RefusedRange[] = []
  let open: { from: number; to: number; message: string } | undefined
  for (const index of [...known.keys()].sort((a, b) => a - b)) {
    const verdict = known.get(index)!
    if (open && verdict.refused && verdict.message === open.message) {
      open.to = index
      continue
    }
    if (open) ranges.push({ from: valueAt(open.from), to: valueAt(open.to), message: open.message })
    open = verdict.refused ? { from: index, to: index, message: verdict.message } : undefined
  }
  if (open) ranges.push({ from: valueAt(open.from), to: valueAt(open.to), message: open.message })
  return ranges
}
