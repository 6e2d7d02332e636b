import { type FieldError, ValidationError } from '@/lib/api/errors'
import type { ParameterDefinition, ParameterValue, Values } from '@/lib/cad/engine'
import { type ParameterSet, ZParameter } from '@/lib/sessions/schemas'

// A session's parameter values against the parameters its model defines: checked, stored,
// overlaid on the defaults and answered. Pure functions: no database, no engine.

/** The parameters and the session's files the values are checked against (a BuildSource is one). */
export interface ValueRules {
  definitions: ParameterDefinition[]
  inputs: { sessionFileNames: ReadonlyMap<string, string> }
}

/** A value that fits its parameter, or why not: each problem with its path below the value. */
type CheckedValue = { value: ParameterValue } | { problems: { path: number[]; message: string }[] }

function rangeProblem({ min, max }: { min: number | null; max: number | null }, value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number'
  if (min !== null && value < min) return `must be at least ${min}`
  if (max !== null && value > max) return `must be at most ${max}`
  return null
}

function checkValue(
  definition: ParameterDefinition,
  value: unknown,
  sessionFileIds: ReadonlySet<string>,
): CheckedValue {
  const refuse = (message: string): CheckedValue => ({ problems: [{ path: [], message }] })
  switch (definition.kind) {
    case 'number': {
      const problem = rangeProblem(definition, value)
      return problem === null && typeof value === 'number' ? { value } : refuse(problem ?? 'must be a number')
    }
    case 'vector': {
      const { length } = definition.default
      if (!Array.isArray(value) || value.length !== length) return refuse(`must be a list of ${length} numbers`)
      const numbers = value.filter((element): element is number => typeof element === 'number')
      const problems = value.flatMap((element, index) => {
        const problem = rangeProblem(definition, element)
        return problem ? [{ path: [index], message: `element ${index + 1} ${problem}` }] : []
      })
      return problems.length === 0 ? { value: numbers } : { problems }
    }
    case 'choice': {
      const option = definition.options.find((candidate) => candidate.value === value)
      return option
        ? { value: option.value }
        : refuse(`must be one of ${definition.options.map((candidate) => JSON.stringify(candidate.value)).join(', ')}`)
    }
    case 'bool':
      return typeof value === 'boolean' ? { value } : refuse('must be true or false')
    case 'string':
      if (typeof value !== 'string') return refuse('must be a string')
      return definition.maxLength !== null && value.length > definition.maxLength
        ? refuse(`must be at most ${definition.maxLength} characters`)
        : { value }
    case 'file':
      return typeof value === 'string' && (value === '' || sessionFileIds.has(value))
        ? { value }
        : refuse('must be the id of a file of this session, or ""')
  }
}

/** The values to store from a set-parameters body: 422 naming every bad key, and nothing stored. */
export function validateValues(
  definitions: ParameterDefinition[],
  body: Record<string, { value: unknown }>,
  sessionFileIds: ReadonlySet<string>,
): Values {
  const byKey = new Map(definitions.map((definition) => [definition.key, definition]))
  const problems: FieldError[] = []
  const values: Values = {}
  for (const [key, { value }] of Object.entries(body)) {
    const definition = byKey.get(key)
    if (!definition) {
      problems.push({ path: [key], message: 'is not a parameter of this model' })
      continue
    }
    const checked = checkValue(definition, value, sessionFileIds)
    if ('value' in checked) values[key] = checked.value
    else problems.push(...checked.problems.map(({ path, message }) => ({ path: [key, 'value', ...path], message })))
  }
  // The sentence names each parameter by its key alone, as it always has.
  if (problems.length > 0)
    throw new ValidationError(problems, problems.map(({ path, message }) => `${path[0]}: ${message}`).join('; '))
  return values
}

/** Defaults overlaid with the stored values that still fit the (possibly changed) model. */
export function effectiveValues(
  { definitions, inputs }: ValueRules,
  stored: Readonly<Record<string, unknown>>,
): Values {
  const sessionFileIds = new Set(inputs.sessionFileNames.keys())
  return Object.fromEntries(
    definitions.map((definition) => {
      const checked = Object.hasOwn(stored, definition.key)
        ? checkValue(definition, stored[definition.key], sessionFileIds)
        : null
      return [definition.key, checked && 'value' in checked ? checked.value : definition.default]
    }),
  )
}

/** `wall_thickness` and `wallThickness` both read "Wall thickness". */
function displayName(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_+/g, ' ')
    .trim()
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export function toParameterSet(definitions: ParameterDefinition[], values: Values): ParameterSet {
  return Object.fromEntries(
    definitions.map((definition) => [definition.key, toParameter(definition, values[definition.key])]),
  )
}

/** The parameter as clients see it; parsed, since the kinds' fields and values are checked apart. */
function toParameter({ key, kind, ...fields }: ParameterDefinition, value: ParameterValue | undefined) {
  return ZParameter.parse({
    name: displayName(key),
    type: kind === 'number' ? 'float' : kind,
    ...fields,
    value: value ?? fields.default,
  })
}
