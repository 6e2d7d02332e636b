// Values as OpenSCAD's -D assignments. Relative imports: worker threads load it (a search for
// refused values sets each value it tries).
import type { ParameterValue } from '../engine'

const IDENTIFIER = /^\$?[A-Za-z_][A-Za-z0-9_]*$/

/** OpenSCAD source for a value given with -D: numbers, booleans and vectors as they are, strings quoted. */
export function toDefine(key: string, value: ParameterValue): string {
  if (!IDENTIFIER.test(key)) throw new Error(`not an OpenSCAD variable name: ${key}`)
  if ([value].flat().some((item) => typeof item === 'number' && !Number.isFinite(item)))
    throw new Error(`${key} must be finite numbers`)
  // A vector's JSON (`[42,42,7]`) is OpenSCAD's. JSON string escapes (\" \\ \n \uXXXX) are also OpenSCAD's.
  return `${key}=${typeof value === 'boolean' || typeof value === 'number' ? String(value) : JSON.stringify(value)}`
}

/** A build's values and its quality's overrides as -D assignments. */
export function definesOf(values: Record<string, ParameterValue>, overrides: Record<string, ParameterValue>): string[] {
  return Object.entries({ ...values, ...overrides }).map(([key, value]) => toDefine(key, value))
}
