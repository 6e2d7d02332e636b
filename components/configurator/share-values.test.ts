import { describe, expect, it } from 'vitest'
import type { ParameterSet } from '@/lib/sessions/schemas'
import { decodeShareQuery, encodeShareQuery } from '@/components/configurator/share-values'

const base = { group: 'Size', caption: '', name: '' }
const parameters: ParameterSet = {
  width: { ...base, type: 'float', min: 30, max: 200, step: 1, default: 80, value: 80 },
  with_lid: { ...base, type: 'bool', default: true, value: true },
  corners: {
    ...base,
    type: 'choice',
    options: [
      { value: 'square', label: 'Square' },
      { value: 'round', label: 'Rounded' },
    ],
    default: 'round',
    value: 'round',
  },
  teeth: {
    ...base,
    type: 'choice',
    options: [
      { value: 12, label: '12' },
      { value: 24, label: '24' },
    ],
    default: 12,
    value: 12,
  },
  label: { ...base, type: 'string', maxLength: 20, default: 'Hello; world', value: 'Hello; world' },
  logo: { ...base, type: 'file', default: '', value: '' },
  size: { ...base, type: 'vector', min: 0, max: 100, step: 1, default: [42, 42, 7], value: [42, 42, 7] },
}

describe('share links', () => {
  it('round-trips changed values with their types and leaves defaults out', () => {
    const values = {
      width: 120.5,
      with_lid: false,
      corners: 'square',
      teeth: 24,
      label: 'A&B = 1',
      logo: 'abc',
      size: [42, 50.5, 7],
    }
    const query = encodeShareQuery(parameters, values)
    expect(query).not.toContain('logo')
    expect(new URLSearchParams(query).get('size')).toBe('42,50.5,7')
    expect(decodeShareQuery(parameters, new URLSearchParams(query))).toEqual({
      width: 120.5,
      with_lid: false,
      corners: 'square',
      teeth: 24,
      label: 'A&B = 1',
      size: [42, 50.5, 7],
    })
    expect(encodeShareQuery(parameters, { width: 80, size: [42, 42, 7] })).toBe('')
  })

  it('ignores unknown keys and passes bad values on for the server to refuse', () => {
    expect(decodeShareQuery(parameters, new URLSearchParams('utm=x&width=wide&with_lid=maybe&size=1,,3'))).toEqual({
      width: Number.NaN,
      with_lid: 'maybe',
      size: '1,,3',
    })
  })
})
