import { type FieldError, ValidationError } from '@/lib/api/errors'
import type { ParameterDefinition, ParameterValue } from '@/lib/cad/engine'
import type { ParameterSet } from '@/lib/sessions/schemas'

export type Values = Record<string, ParameterValue>

/** `wall_thickness` and `wallThickness` both read "Wall thickness". */
function displayName(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_+/g, ' ').trim().toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** Why `value` is not acceptable for the parameter, or null when it is. */
function valueProblem(definition: ParameterDefinition, value: unknown, sessionFileIds: ReadonlySet<string>): string | null {
  switch (definition.kind) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number'
      if (definition.min !== null && value < definition.min) return `must be at least ${definition.min}`
      if (definition.max !== null && value > definition.max) return `must be at most ${definition.max}`
      return null
    case 'choice':
      return definition.options.some((option) => option.value === value)
        ? null
        : `must be one of ${definition.options.map((option) => JSON.stringify(option.value)).join(', ')}`
    case 'bool':
      return typeof value === 'boolean' ? null : 'must be true or false'
    case 'string':
      if (typeof value !== 'string') return 'must be a string'
      return definition.maxLength !== null && value.length > definition.maxLength ? `must be at most ${definition.maxLength} characters` : null
    case 'file':
      return value === '' || (typeof value === 'string' && sessionFileIds.has(value)) ? null : 'must be the id of a file of this session, or ""'
  }
}

/** The values to store from a set-parameters body: 422 naming every bad key, and nothing stored. */
export function validateValues(definitions: ParameterDefinition[], body: Record<string, { value: unknown }>, sessionFileIds: ReadonlySet<string>): Values {
  const byKey = new Map(definitions.map((definition) => [definition.key, definition]))
  const problems: FieldError[] = []
  const values: Values = {}
  for (const [key, { value }] of Object.entries(body)) {
    const definition = byKey.get(key)
    const problem = definition ? valueProblem(definition, value, sessionFileIds) : 'is not a parameter of this model'
    if (problem) problems.push({ path: definition ? [key, 'value'] : [key], message: problem })
    else values[key] = value as ParameterValue
  }
  // The sentence names each parameter by its key alone, as it always has.
  if (problems.length > 0) throw new ValidationError(problems, problems.map(({ path, message }) => `${path[0]}: ${message}`).join('; '))
  return values
}

/** Defaults overlaid with the stored values that still fit the (possibly changed) model. */
export function effectiveValues(definitions: ParameterDefinition[], stored: Values, sessionFileIds: ReadonlySet<string>): Values {
  return Object.fromEntries(
    definitions.map((definition) => {
      const value = stored[definition.key]
      const isValid = value !== undefined && valueProblem(definition, value, sessionFileIds) === null
      return [definition.key, isValid ? value : definition.default]
    }),
  )
}

export function toParameterSet(definitions: ParameterDefinition[], values: Values): ParameterSet {
  return Object.fromEntries(
    definitions.map((definition) => {
      const common = { name: displayName(definition.key), group: definition.group, caption: definition.caption }
      const value = values[definition.key] ?? definition.default
      switch (definition.kind) {
        case 'number': {
          const { min, max, step } = definition
          return [definition.key, { ...common, type: 'float', min, default: definition.default, max, value, step }]
        }
        case 'choice':
          return [definition.key, { ...common, type: 'choice', default: definition.default, value, options: definition.options }]
        case 'string':
          return [definition.key, { ...common, type: 'string', default: definition.default, value, maxLength: definition.maxLength }]
        default:
          return [definition.key, { ...common, type: definition.kind, default: definition.default, value }]
      }
    }),
  )
}
