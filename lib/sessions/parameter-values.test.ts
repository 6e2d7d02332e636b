import { describe, expect, it } from 'vitest'
import { ValidationError } from '@/lib/api/errors'
import type { ParameterDefinition } from '@/lib/cad/engine'
import { effectiveValues, toParameterSet, validateValues, type ValueRules } from '@/lib/sessions/parameter-values'

const base = { group: 'Size', caption: '' }
const DEFINITIONS: ParameterDefinition[] = [
  { ...base, key: 'wall_thickness', kind: 'number', default: 2, min: 1, max: 5, step: 0.5 },
  { ...base, key: 'size', kind: 'vector', default: [10, 20], min: 0, max: 100, step: null },
  {
    ...base,
    key: 'shape',
    kind: 'choice',
    default: 'round',
    options: [
      { value: 'round', label: 'Round' },
      { value: 'square', label: 'Square' },
    ],
  },
  { ...base, key: 'logo', kind: 'file', default: '' },
]
const RULES: ValueRules = { definitions: DEFINITIONS, inputs: { sessionFileNames: new Map([['file-1', 'logo.svg']]) } }

function problemsOf(body: Record<string, { value: unknown }>) {
  try {
    validateValues(DEFINITIONS, body, new Set(RULES.inputs.sessionFileNames.keys()))
  } catch (error) {
    if (error instanceof ValidationError) return { message: error.message, fields: error.fields }
    throw error
  }
  return null
}

describe('parameter values', () => {
  it('stores the values that fit their parameters', () => {
    expect(
      validateValues(
        DEFINITIONS,
        { wall_thickness: { value: 3 }, size: { value: [5, 6] }, logo: { value: 'file-1' } },
        new Set(['file-1']),
      ),
    ).toEqual({
      wall_thickness: 3,
      size: [5, 6],
      logo: 'file-1',
    })
  })

  it('refuses a whole body naming every bad key, each vector element by its place', () => {
    expect(
      problemsOf({
        wall_thickness: { value: 9 },
        size: { value: [5, -1] },
        colour: { value: 'red' },
        logo: { value: 'file-2' },
      }),
    ).toEqual({
      message:
        'wall_thickness: must be at most 5; size: ' +
        'element 2 must be at least 0; colour: is ' +
        'not a parameter of this model; logo: must ' +
        'be the id of a file of this session, or ""',
      fields: [
        { path: ['wall_thickness', 'value'], message: 'must be at most 5' },
        { path: ['size', 'value', 1], message: 'element 2 must be at least 0' },
        { path: ['colour'], message: 'is not a parameter of this model' },
        { path: ['logo', 'value'], message: 'must be the id of a file of this session, or ""' },
      ],
    })
  })

  it('overlays the stored values that still fit on the defaults', () => {
    // The model changed: `shape` lost the option the session stored, a file was removed.
    expect(effectiveValues(RULES, { wall_thickness: 4, shape: 'hexagon', logo: 'gone', unknown: 1 })).toEqual({
      wall_thickness: 4,
      size: [10, 20],
      shape: 'round',
      logo: '',
    })
  })

  it('answers each parameter by a readable name with its value', () => {
    const set = toParameterSet(DEFINITIONS, { wall_thickness: 4 })
    expect(set.wall_thickness).toMatchObject({ name: 'Wall thickness', type: 'float', value: 4, min: 1, max: 5 })
    expect(set.shape).toMatchObject({ name: 'Shape', type: 'choice', value: 'round' })
  })
})
