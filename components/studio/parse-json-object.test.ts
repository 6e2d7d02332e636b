import { describe, expect, it } from 'vitest'
import { describeJsonSyntaxError, parseJsonObject } from '@/components/studio/parse-json-object'

describe('parseJsonObject', () => {
  it('accepts an object', () => {
    expect(parseJsonObject('{"quality": {"preview": {"$fn": 24}}}')).toEqual({
      value: { quality: { preview: { $fn: 24 } } },
      error: null,
    })
  })

  it.each([
    ['{"a": 1', /^Invalid JSON at line 1, column 8: /],
    ['{\n  "a": 1,\n  "b": 2', /^Invalid JSON at line 3, column 9: /],
    ['', /^Invalid JSON at line 1, column 1: /],
    ['{"a": }', /^Invalid JSON( at line 1, column 7)?: /],
  ])('says where %j stops being JSON', (text, message) => {
    const result = parseJsonObject(text)
    expect(result.value).toBeNull()
    expect(result.error).toMatch(message)
  })

  it.each(['[]', '"text"', '42', 'null'])('refuses %s, which is not an object', (text) => {
    expect(parseJsonObject(text)).toEqual({ value: null, error: expect.stringMatching(/^Must be a JSON object/) })
  })
})

describe('describeJsonSyntaxError', () => {
  const text = '{\n  "a": 1,\n  "b": }'
  it.each([
    [
      'Chromium',
      `Unexpected token '}', "{"a": 1,"b": }" is not valid JSON at position 19 (line 3 column 8)`,
      `Invalid JSON at line 3, column 8: Unexpected token '}', "{"a": 1,"b": }" is not valid JSON`,
    ],
    [
      'V8 with a position only',
      'Expected double-quoted property name in JSON at position 19',
      'Invalid JSON at line 3, column 8: Expected double-quoted property name',
    ],
    [
      'Firefox',
      'JSON.parse: unexpected character at line 3 column 8 of the JSON data',
      'Invalid JSON at line 3, column 8: unexpected character',
    ],
    ['Safari', 'JSON Parse error: Unexpected token: }', 'Invalid JSON: JSON Parse error: Unexpected token: }'],
  ])('reads the line and column from %s', (_engine, message, expected) => {
    expect(describeJsonSyntaxError(text, message)).toBe(expected)
  })
})
