import type { ParameterRefusals, ParameterValue, Values } from '@/lib/cad/engine'
import { SEARCHING_REASON, type RefusedValues } from '@/lib/cad/refused-values-schema'

// Where the model refuses values (docs/refused-values.md), as the customer's page uses the maps
// the server searched: a parameter's map was searched with the other parameters held, so it
// holds for as long as they are unchanged, however that parameter itself moves.

/** A parameter's map and the values it was searched at. */
export interface KnownRefusals {
  values: Values
  refusals: ParameterRefusals
}

const isSame = (a: ParameterValue | undefined, b: ParameterValue | undefined) => JSON.stringify(a) === JSON.stringify(b)

/** Whether a search of the map has not ended yet: the page asks again. */
export function isSearching(map: RefusedValues): boolean {
  return Object.values(map.parameters).some((refusals) => !refusals.searched && refusals.reason === SEARCHING_REASON)
}

/** The maps known so far with those of `map` added: a search still under way adds nothing. */
export function withMap(known: Record<string, KnownRefusals>, map: RefusedValues): Record<string, KnownRefusals> {
  const found = Object.entries(map.parameters).filter(
    ([, refusals]) => refusals.searched || refusals.reason !== SEARCHING_REASON,
  )
  return { ...known, ...Object.fromEntries(found.map(([key, refusals]) => [key, { values: map.values, refusals }])) }
}

/** Each parameter's map that holds at `values`: searched with every other parameter as it is now. */
export function refusalsAt(known: Record<string, KnownRefusals>, values: Values): Record<string, KnownRefusals> {
  return Object.fromEntries(
    Object.entries(known).filter(([key, map]) =>
      Object.keys({ ...map.values, ...values }).every(
        (other) => other === key || isSame(map.values[other], values[other]),
      ),
    ),
  )
}

type Ranges = { from: number; to: number; message: string }[]
const messageIn = (ranges: Ranges, value: ParameterValue | undefined) =>
  typeof value === 'number' ? (ranges.find(({ from, to }) => value >= from && value <= to)?.message ?? null) : null

/**
 * The designer's message when the map of parameter `key` refuses `value`; null when it does not
 * or cannot tell. A vector's component was searched with the others held: its ranges hold while they are.
 */
export function refusalOf(map: KnownRefusals | undefined, key: string, value: ParameterValue): string | null {
  const refusals = map?.refusals
  if (!refusals?.searched) return null
  if (!('components' in refusals))
    return refusals.options.find((option) => isSame(option.value, value))?.message ?? messageIn(refusals.ranges, value)
  const searchedAt = map!.values[key]
  if (!Array.isArray(value) || !Array.isArray(searchedAt)) return null
  const differs = value.flatMap((element, index) => (element === searchedAt[index] ? [] : [index]))
  if (differs.length > 1) return null
  const components = differs.length === 1 ? differs : value.map((_, index) => index)
  return (
    components.map((index) => messageIn(refusals.components[index]?.ranges ?? [], value[index])).find(Boolean) ?? null
  )
}
