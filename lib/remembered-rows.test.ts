import { describe, expect, it } from 'vitest'
import { rememberedRows } from '@/lib/remembered-rows'

// Without DATABASE_URL, notifications stay in this process: forgetting is heard here at once.

/** A read that counts its calls and answers `value`. */
function counted<T>(value: T) {
  const read = async () => {
    read.calls++
    return value
  }
  read.calls = 0
  return read
}

describe('remembered rows', () => {
  it('read a row once, and again after any kind on the channel forgot', async () => {
    const rows = rememberedRows<string>('test rows', 'paraform_test_rows', { entries: 10, maxAgeMs: 60_000 })
    const others = rememberedRows<string>('test other rows', 'paraform_test_rows', { entries: 10, maxAgeMs: 60_000 })
    const read = counted('row')
    expect(await rows.get('a', read)).toBe('row')
    expect(await rows.get('a', read)).toBe('row')
    expect(read.calls).toBe(1)

    await others.forget()
    expect(await rows.get('a', read)).toBe('row')
    expect(read.calls).toBe(2)
  })

  it('forget only the rows whose key names an id, on every kind of the channel', async () => {
    const rows = rememberedRows<string>('test keyed rows', 'paraform_test_keyed_rows', {
      entries: 10,
      maxAgeMs: 60_000,
    })
    const others = rememberedRows<string>('test other keyed rows', 'paraform_test_keyed_rows', {
      entries: 10,
      maxAgeMs: 60_000,
    })
    const read = counted('row')
    for (const key of ['a', 'a:s', 'b:s', 'b:t', 'ab']) await rows.get(key, read)
    await others.get('s', read)
    expect(read.calls).toBe(6)

    await others.forget('s')
    for (const key of ['a', 'a:s', 'b:s', 'b:t', 'ab', 's']) await rows.get(key, read)
    // a:s, b:s and s (of this kind now) are read again; a part of an id is no id.
    expect(read.calls).toBe(9)
  })

  it('do not remember a row read while they were forgotten, nor nothing', async () => {
    const rows = rememberedRows<string>('test racing rows', 'paraform_test_racing_rows', {
      entries: 10,
      maxAgeMs: 60_000,
    })
    let answer!: (value: string) => void
    const racing = rows.get('a', () => new Promise((resolve) => (answer = resolve)))
    await new Promise((resolve) => setImmediate(resolve))
    await rows.forget()
    answer('read before the change')
    expect(await racing).toBe('read before the change')
    const read = counted('read after the change')
    expect(await rows.get('a', read)).toBe('read after the change')
    expect(read.calls).toBe(1)

    const missing = counted(null)
    await rows.get('b', missing)
    await rows.get('b', missing)
    expect(missing.calls).toBe(2)
  })

  it('keep at most their number of entries, forgetting the oldest', async () => {
    const rows = rememberedRows<string>('test few rows', 'paraform_test_few_rows', { entries: 2, maxAgeMs: 60_000 })
    const read = counted('row')
    for (const key of ['a', 'b', 'c']) await rows.get(key, read)
    await rows.get('c', read)
    await rows.get('b', read)
    expect(read.calls).toBe(3)
    await rows.get('a', read)
    expect(read.calls).toBe(4)
  })
})
