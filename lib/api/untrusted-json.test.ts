import { describe, expect, it } from 'vitest'
import { assertNoNul, MAX_JSON_DEPTH, parseUntrustedJson } from '@/lib/api/untrusted-json'

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`

describe('parseUntrustedJson', () => {
  it.each([
    ['64 arrays', nested(MAX_JSON_DEPTH)],
    ['64 mixed levels', `${'{"a":['.repeat(32)}${']}'.repeat(32)}`],
    ['brackets in a string', JSON.stringify({ a: '[[[['.repeat(100) })],
    ['an escaped quote before brackets', JSON.stringify({ a: `"${'{'.repeat(100)}`, b: '\\' })],
    ['siblings that never nest deep', JSON.stringify(Array.from({ length: 1000 }, () => [[1]]))],
  ])('parses %s', (_case, text) => {
    expect(parseUntrustedJson(text)).toEqual(JSON.parse(text))
  })

  it.each([
    ['65 arrays', nested(MAX_JSON_DEPTH + 1)],
    ['65 objects', `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`],
    ['a million unclosed levels', '['.repeat(1_000_000)],
  ])('refuses %s', (_case, text) => {
    expect(() => parseUntrustedJson(text)).toThrow(
      expect.objectContaining({
        code: 'bad_request',
        message: `Malformed JSON: nested deeper than ${MAX_JSON_DEPTH} levels`,
      }),
    )
  })

  it('refuses malformed JSON with 400', () => {
    expect(() => parseUntrustedJson('{"a": ')).toThrow(
      expect.objectContaining({ code: 'bad_request', message: expect.stringMatching(/^Malformed JSON: /) }),
    )
  })
})

describe('assertNoNul', () => {
  it.each([
    [{ name: 'a\0' }, [], ['name'], 'must not contain NUL characters'],
    [{ a: [{ b: 'x' }, { c: '\0' }] }, [], ['a', 1, 'c'], 'must not contain NUL characters'],
    [{ a: { 'k\0': 1 } }, [], ['a'], 'keys must not contain NUL characters'],
    [{ 'k\0': 1 }, [], [], 'keys must not contain NUL characters'],
    ['\0', [], [], 'must not contain NUL characters'],
    [{ name: 'a\0' }, ['query'], ['query', 'name'], 'must not contain NUL characters'],
  ])('refuses %j (under %j) naming the field %j', (value, prefix, path, message) => {
    const sentence = path.length > 0 ? `${path.join('.')}: ${message}` : message
    expect(() => assertNoNul(value, prefix)).toThrow(
      expect.objectContaining({ code: 'unprocessable_entity', message: sentence, fields: [{ path, message }] }),
    )
  })

  it('accepts everything else, also the escaped text \\u0000', () => {
    expect(() => assertNoNul({ a: ['\\u0000', 1, null, true, { b: 'ü' }] })).not.toThrow()
  })
})
