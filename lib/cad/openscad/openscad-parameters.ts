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
    return { ...base, kind: 'choice', default: initial, options: parameter.options.map((o) => ({ value: o.value, label: o.name })) }
  }
  if (typeof initial === 'boolean') return { ...base, kind: 'bool', default: initial }
  if (typeof initial === 'string') return { ...base, kind: 'string', default: initial, maxLength: parameter.maxLength ?? null }
  if (typeof initial !== 'number' && (initial.length === 0 || initial.length > 4)) return null
  const range = { min: parameter.min ?? null, max: parameter.max ?? null, step: parameter.step ?? null }
  // OpenSCAD exports vectors of 1 to 4 numbers (`size = [42, 42, 7]; // [0:100]`), the range for each.
  return typeof initial === 'number' ? { ...base, kind: 'number', default: initial, ...range } : { ...base, kind: 'vector', default: initial, ...range }
}

/** Customizer parameters from OpenSCAD's JSON; special variables such as `$fn` are left out. */
export function parseOpenscadParameters(json: string): ParameterDefinition[] {
  const exported = ZExport.parse(JSON.parse(json))
  return exported.parameters
    .filter((parameter) => !parameter.name.startsWith('$'))
    .map(toDefinition)
    .filter((definition) => definition !== null)
}
