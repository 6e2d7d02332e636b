import { describe, expect, it } from 'vitest'
import { framingOrigin, MAX_HOST_MESSAGE_CHARS, readHostMessage } from '@/lib/embed/messages'

const base = { protocol: 'paraform', version: 1 }

describe('host messages', () => {
  it('reads set, applyPreset and snapshot', () => {
    expect(readHostMessage({ ...base, type: 'set', requestId: 'r1', values: { width: 80, text: 'Ada', flag: true, size: [1, 2] } })).toEqual({
      message: { ...base, type: 'set', requestId: 'r1', values: { width: 80, text: 'Ada', flag: true, size: [1, 2] } },
    })
    expect('message' in readHostMessage({ ...base, type: 'applyPreset', requestId: 'r2', name: 'Large' })).toBe(true)
    expect('message' in readHostMessage({ ...base, type: 'snapshot', requestId: 'r3' })).toBe(true)
  })

  it('ignores other messages, unknown types and versions, malformed and oversized ones', () => {
    for (const data of [
      'hello',
      null,
      { type: 'set' },
      { ...base, type: 'delete', requestId: 'r' },
      { ...base, version: 2, type: 'snapshot', requestId: 'r' },
      { ...base, type: 'set', requestId: 'r', values: { width: { nested: 1 } } },
      { ...base, type: 'snapshot' },
      { ...base, type: 'set', requestId: 'r', values: { text: 'x'.repeat(MAX_HOST_MESSAGE_CHARS) } },
    ]) {
      expect(readHostMessage(data)).toHaveProperty('ignored')
    }
  })
})

describe('framing origin', () => {
  it("is the framing page's exact origin when its host is the application's domain", () => {
    expect(framingOrigin('shop.example.com', ['https://shop.example.com'], '')).toBe('https://shop.example.com')
    expect(framingOrigin('localhost:4100', undefined, 'http://localhost:4100/product?x=1')).toBe('http://localhost:4100')
  })

  it('is null for another host, another port, an opaque origin or no framing page', () => {
    expect(framingOrigin('shop.example.com', ['https://evil.example'], 'https://shop.example.com/')).toBeNull()
    expect(framingOrigin('localhost:4100', ['http://localhost:4101'], '')).toBeNull()
    expect(framingOrigin('shop.example.com', ['null'], '')).toBeNull()
    expect(framingOrigin('shop.example.com', undefined, '')).toBeNull()
  })
})
