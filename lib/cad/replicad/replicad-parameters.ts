import { z } from 'zod'
import type { ParameterDefinition } from '../engine'

// A replicad model's parameters: every value of `defaultParams` (replicad's workbench convention)
// is one, of its value's type; an entry of the optional `parameters` list, by `name`, gives it a
// caption, a group, a range and step, a maximum length or a dropdown's options (docs/replicad.md).

const ZOption = z.union([
  z.number(),
  z.string(),
  z.object({ value: z.union([z.number(), z.string()]), label: z.string().max(200) }),
])

const ZDefinition = z.strictObject({
  name: z.string().min(1).max(100),
  caption: z.string().max(500).default(''),
  group: z.string().max(200).default(''),
  min: z.number().finite().optional(),
  max: z.number().finite().optional(),
  step: z.number().finite().optional(),
  maxLength: z.number().int().min(0).optional(),
  options: z.array(ZOption).min(1).max(500).optional(),
})
type Definition = z.infer<typeof ZDefinition>

const ZValue = z.union([z.number().finite(), z.string(), z.boolean(), z.array(z.number().finite()).min(1).max(4)])

/** A model's parameters that cannot be read: `message` names the parameter, `parameter` finds its line. */
export class ParameterProblem extends Error {
  constructor(
    message: string,
    readonly parameter?: string,
  ) {
    super(message)
  }
}

function toDefinition(
  key: string,
  value: z.infer<typeof ZValue>,
  definition: Definition | undefined,
): ParameterDefinition {
  const problem = (why: string) => new ParameterProblem(`parameter ${key}: ${why}`, key)
  const { caption = '', group = '', min, max, step, maxLength, options } = definition ?? {}
  const base = { key, caption, group }
  if (step !== undefined && step <= 0) throw problem(`its step ${step} must be above 0`)
  if (min !== undefined && max !== undefined && min > max)
    throw problem(`its minimum ${min} is above its maximum ${max}`)
  const isNumbers = typeof value === 'number' || Array.isArray(value)
  if (!isNumbers && (min !== undefined || max !== undefined || step !== undefined))
    throw problem(`a ${typeof value} has no range or step`)
  if (typeof value !== 'string' && maxLength !== undefined) throw problem('only a string has a maxLength')
  if (options) {
    if (typeof value !== 'number' && typeof value !== 'string') throw problem('only a number or a string has options')
    const choices = options.map((option) =>
      typeof option === 'object' ? option : { value: option, label: String(option) },
    )
    if (new Set(choices.map((choice) => choice.value)).size < choices.length)
      throw problem('two options have one value')
    if (!choices.some((choice) => choice.value === value))
      throw problem(`its default ${JSON.stringify(value)} is not among its options`)
    return { ...base, kind: 'choice', default: value, options: choices }
  }
  if (typeof value === 'boolean') return { ...base, kind: 'bool', default: value }
  if (typeof value === 'string') {
    if (maxLength !== undefined && value.length > maxLength)
      throw problem(`its default is longer than its maxLength ${maxLength}`)
    return { ...base, kind: 'string', default: value, maxLength: maxLength ?? null }
  }
  const outside = [value].flat().find((number) => number < (min ?? -Infinity) || number > (max ?? Infinity))
  if (outside !== undefined) throw problem(`its default ${outside} is outside its range ${min ?? '…'} to ${max ?? '…'}`)
  const range = { min: min ?? null, max: max ?? null, step: step ?? null }
  return typeof value === 'number'
    ? { ...base, kind: 'number', default: value, ...range }
    : { ...base, kind: 'vector', default: value, ...range }
}

/**
 * The definitions of a model's `defaultParams` and `parameters` as its module gave them (null or
 * undefined when absent), in the order of `defaultParams`. Throws a ParameterProblem for what contradicts
 * itself: a value of no parameter type, a definition of no value or given twice, a default
 * outside its range or options, a step of 0.
 */
export function readReplicadParameters(defaultParams: unknown, parameters: unknown): ParameterDefinition[] {
  if (defaultParams != null && (typeof defaultParams !== 'object' || Array.isArray(defaultParams)))
    throw new ParameterProblem('defaultParams must be an object of parameter names to their defaults')
  const values = Object.entries((defaultParams ?? {}) as Record<string, unknown>)
  const list = z
    .array(z.unknown())
    .max(1000)
    .safeParse(parameters ?? [])
  if (!list.success) throw new ParameterProblem('parameters must be a list of definitions, each with a name')
  const definitions = new Map<string, Definition>()
  list.data.forEach((raw, index) => {
    const parsed = ZDefinition.safeParse(raw)
    const name = (raw as { name?: unknown } | null)?.name
    const named = typeof name === 'string' ? name : undefined
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      throw new ParameterProblem(
        `parameters[${index}]${named ? ` (${named})` : ''}: ${[...issue.path].join('.') || 'it'}: ${issue.message}`,
        named,
      )
    }
    if (definitions.has(parsed.data.name))
      throw new ParameterProblem(`parameter ${parsed.data.name} is defined twice`, parsed.data.name)
    if (!values.some(([key]) => key === parsed.data.name))
      throw new ParameterProblem(`parameter ${parsed.data.name} has no default in defaultParams`, parsed.data.name)
    definitions.set(parsed.data.name, parsed.data)
  })
  return values.map(([key, value]) => {
    const parsed = ZValue.safeParse(value)
    if (!parsed.success)
      throw new ParameterProblem(
        `parameter ${key}: its default must be a number, a string, a boolean or a list of 1 to 4 numbers`,
        key,
      )
    return toDefinition(key, parsed.data, definitions.get(key))
  })
}

/**
 * The 1-based line of the model's source that defines the parameter `name`: its entry in
 * `parameters` (`name: 'width'`), else its key (`width: 40`); undefined when none does.
 */
export function lineNaming(source: string, name: string): number | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const lines = source.split('\n')
  for (const pattern of [
    new RegExp(`\\bname\\s*:\\s*['"\`]${escaped}['"\`]`),
    new RegExp(`(^|[\\s{,])['"]?${escaped}['"]?\\s*:`),
  ]) {
    const index = lines.findIndex((line) => pattern.test(line))
    if (index !== -1) return index + 1
  }
  return undefined
}
