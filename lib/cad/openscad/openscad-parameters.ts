import { z } from 'zod'
import type { ParameterDefinition } from '@/lib/cad/engine'

// The shape of `openscad --export-format=param`.
const ZOption = z.object({ name: z.string(), value: z.union([z.number(), z.string()]) })
const ZExportedParameter = z.object({
  name: z.string(),
  type: z.enum(['number', 'string', 'boolean']),
  initial: z.union([z.number(), z.string(), z.boolean(), z.array(z.number())]),
  group: z.string().default(''),
  caption: z.string().default(''),
  min: z.number().optional(),
  max: z.number().optional(),
  step: z.number().optional(),
  maxLength: z.number().optional(),
  options: z.array(ZOption).optional(),
})
const ZExport = z.object({ parameters: z.array(ZExportedParameter).default([]) })

type Exported = z.infer<typeof ZExportedParameter>

// `logo = ""; // [file]` marks a file parameter; OpenSCAD reads it as a dropdown offering "file".
function isFileParameter(parameter: Exported): boolean {
  const options = parameter.options?.filter((option) => option.value !== parameter.initial) ?? []
  return parameter.type === 'string' && options.length === 1 && options[0]?.value === 'file'
}

function toDefinition(parameter: Exported): ParameterDefinition | null {
  const base = { key: parameter.name, group: parameter.group, caption: parameter.caption }
  const { initial } = parameter
  if (isFileParameter(parameter)) return { ...base, kind: 'file', default: typeof initial === 'string' ? initial : '' }
  if (parameter.options) {
    if (typeof initial !== 'number' && typeof initial !== 'string') return null
    return {
      ...base,
      kind: 'choice',
      default: initial,
      options: parameter.options.map((o) => ({ value: o.value, label: o.name })),
    }
  }
  if (typeof initial === 'boolean') return { ...base, kind: 'bool', default: initial }
  if (typeof initial === 'string')
    return { ...base, kind: 'string', default: initial, maxLength: parameter.maxLength ?? null }
  if (typeof initial !== 'number' && (initial.length === 0 || initial.length > 4)) return null
  const range = { min: parameter.min ?? null, max: parameter.max ?? null, step: parameter.step ?? null }
  // OpenSCAD exports vectors of 1 to 4 numbers (`size = [42, 42, 7]; // [0:100]`), the range for each.
  return typeof initial === 'number'
    ? { ...base, kind: 'number', default: initial, ...range }
    : { ...base, kind: 'vector', default: initial, ...range }
}

/**
 * The step of a spinbox (`offset = 1.5; // 0.5`): OpenSCAD's Customizer uses it, but its JSON
 * export leaves it out for numbers without a maximum.
 */
function spinboxStep(source: string, name: string): number | undefined {
  const escaped = name.replace(/\$/g, '\\$')
  const match = new RegExp(
    `^[ \\t]*${escaped}[ \\t]*=[^;\\n]*;[ \\t]*//[ \\t]*([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)[ \\t]*$`,
    'm',
  ).exec(source)
  return match ? Number(match[1]) : undefined
}

/**
 * Customizer parameters from OpenSCAD's JSON and the main file's source (LF line endings),
 * top-level special variables such as `$fn` included, as its Customizer shows them.
 */
export function parseOpenscadParameters(json: string, mainSource: string): ParameterDefinition[] {
  const exported = ZExport.parse(JSON.parse(json))
  return exported.parameters
    .map((parameter) =>
      parameter.type === 'number' && parameter.max === undefined && !parameter.options
        ? { ...parameter, step: spinboxStep(mainSource, parameter.name) }
        : parameter,
    )
    .map(toDefinition)
    .filter((definition) => definition !== null)
}
