import { describe, expect, it } from 'vitest'
import { lineNaming, ParameterProblem, readReplicadParameters } from './replicad-parameters'

describe('readReplicadParameters', () => {
  it('reads no parameters of a model without defaultParams', () => {
    expect(readReplicadParameters(undefined, undefined)).toEqual([])
  })

  it('makes each value of defaultParams a parameter of its type, without a range when it has no definition', () => {
    expect(readReplicadParameters({ width: 40, label: 'Hi', round: true, size: [1, 2, 3] }, null)).toEqual([
      { key: 'width', caption: '', group: '', kind: 'number', default: 40, min: null, max: null, step: null },
      { key: 'label', caption: '', group: '', kind: 'string', default: 'Hi', maxLength: null },
      { key: 'round', caption: '', group: '', kind: 'bool', default: true },
      { key: 'size', caption: '', group: '', kind: 'vector', default: [1, 2, 3], min: null, max: null, step: null },
    ])
  })

  it('takes ranges, captions, groups, lengths and options from the definitions, in the order of defaultParams', () => {
    const read = readReplicadParameters({ holes: 2, finish: 'm', text: 'A', width: 40 }, [
      { name: 'width', caption: 'Width (mm)', group: 'Size', min: 20, max: 200, step: 1 },
      { name: 'finish', options: [{ value: 'm', label: 'Matte' }, 'g'] },
      { name: 'holes', options: [0, 2, 4] },
      { name: 'text', maxLength: 12 },
    ])
    expect(read).toEqual([
      {
        key: 'holes',
        caption: '',
        group: '',
        kind: 'choice',
        default: 2,
        options: [0, 2, 4].map((value) => ({ value, label: String(value) })),
      },
      {
        key: 'finish',
        caption: '',
        group: '',
        kind: 'choice',
        default: 'm',
        options: [
          { value: 'm', label: 'Matte' },
          { value: 'g', label: 'g' },
        ],
      },
      { key: 'text', caption: '', group: '', kind: 'string', default: 'A', maxLength: 12 },
      { key: 'width', caption: 'Width (mm)', group: 'Size', kind: 'number', default: 40, min: 20, max: 200, step: 1 },
    ])
  })

  it.each([
    [
      'a default outside its range',
      { w: 300 },
      [{ name: 'w', min: 0, max: 200 }],
      'parameter w: its default 300 is outside its range 0 to 200',
    ],
    ['a step of 0', { w: 3 }, [{ name: 'w', step: 0 }], 'parameter w: its step 0 must be above 0'],
    ['two definitions of one name', { w: 3 }, [{ name: 'w' }, { name: 'w' }], 'parameter w is defined twice'],
    ['a definition of no value', { w: 3 }, [{ name: 'h', min: 1 }], 'parameter h has no default in defaultParams'],
    [
      'a default not among its options',
      { f: 'x' },
      [{ name: 'f', options: ['a'] }],
      'parameter f: its default "x" is not among its options',
    ],
    ['a range on a string', { f: 'x' }, [{ name: 'f', max: 3 }], 'parameter f: a string has no range or step'],
    [
      'a minimum above the maximum',
      { w: 3 },
      [{ name: 'w', min: 5, max: 1 }],
      'parameter w: its minimum 5 is above its maximum 1',
    ],
    [
      'a value of no parameter type',
      { w: { a: 1 } },
      null,
      'parameter w: its default must be a number, a string, a boolean or a list of 1 to 4 numbers',
    ],
    ['an unknown field', { w: 3 }, [{ name: 'w', maximum: 4 }], 'parameters[0] (w): it: Unrecognized key: "maximum"'],
    ['a list that is none', { w: 3 }, { w: {} }, 'parameters must be a list of definitions, each with a name'],
  ])('refuses %s, naming it', (_, defaults, definitions, message) => {
    const thrown = (() => {
      try {
        readReplicadParameters(defaults, definitions)
      } catch (error) {
        return error
      }
    })()
    expect(thrown).toBeInstanceOf(ParameterProblem)
    expect((thrown as Error).message).toBe(message)
  })
})

describe('lineNaming', () => {
  const source = "const defaultParams = {\n  width: 40,\n}\nconst parameters = [\n  { name: 'width', min: 50 },\n]\n"

  it('finds the definition of a parameter, else its key', () => {
    expect(lineNaming(source, 'width')).toBe(5)
    expect(lineNaming("const defaultParams = {\n  'depth': 4 }\n", 'depth')).toBe(2)
    expect(lineNaming(source, 'height')).toBeUndefined()
  })
})
