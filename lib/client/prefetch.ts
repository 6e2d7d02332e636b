// Which values to candidate while a slider is dragged (lib/sessions/prefetch.ts builds them):
// where the thumb is now, the next steps onward in the direction it moves, and one step back.
// They are the values the slider itself can take, written as it writes them, so that the value
// the customer lets go on names the same build.

/** How often a dragged slider sends its candidates. */
export const PREFETCH_INTERVAL_MS = 100

/** A slider's range: candidates only for a parameter with all three. */
export interface SliderRange {
  min: number | null
  max: number | null
  step: number | null
}

function decimalsOf(value: number): number {
  const [, fraction = ''] = String(value).split('.')
  return fraction.length
}

/** The candidates for a slider moved from `previous` to `value`, likeliest first; none off a slider's grid. */
export function sliderCandidates(
  { min, max, step }: SliderRange,
  value: number,
  previous: number | undefined,
): number[] {
  if (min === null || max === null || step === null || !(step > 0)) return []
  const decimals = Math.max(decimalsOf(step), decimalsOf(min))
  const onGrid = (candidate: number) => Number((min + Math.round((candidate - min) / step) * step).toFixed(decimals))
  const direction = previous !== undefined && value < previous ? -1 : 1
  const candidates = [0, 1, 2, -1]
    .map((steps) => onGrid(value + steps * direction * step))
    .filter((candidate) => candidate >= min && candidate <= max)
  return [...new Set(candidates)]
}
