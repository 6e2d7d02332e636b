import { afterEach, describe, expect, it, vi } from 'vitest'
import { framingOrigin, hostMessageOf, MAX_HOST_MESSAGE_CHARS, readHostMessage } from '@/lib/embed/messages'

const base = { protocol: 'paraform', version: 1 }

describe('host messages', () => {
  it('reads set, applyPreset, snapshot and openAr', () => {
    expect(
      readHostMessage({
        ...base,
        type: 'set',
        requestId: 'r1',
        values: { width: 80, text: 'Ada', flag: true, size: [1, 2] },
      }),
    ).toEqual({
      message: { ...base, type: 'set', requestId: 'r1', values: { width: 80, text: 'Ada', flag: true, size: [1, 2] } },
    })
    expect('message' in readHostMessage({ ...base, type: 'applyPreset', requestId: 'r2', name: 'Large' })).toBe(true)
    expect('message' in readHostMessage({ ...base, type: 'snapshot', requestId: 'r3' })).toBe(true)
    expect('message' in readHostMessage({ ...base, type: 'openAr', requestId: 'r4' })).toBe(true)
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

describe('receiving', () => {
  const parent = {}
  const shop = 'https://shop.example.com'
  const snapshot = { ...base, type: 'snapshot', requestId: 'r' }
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.restoreAllMocks()
  })

  it('takes messages only from the framing page at its origin', () => {
    expect(hostMessageOf({ source: parent, origin: shop, data: snapshot } as MessageEvent, parent, shop)).toEqual(
      snapshot,
    )
    expect(hostMessageOf({ source: {}, origin: shop, data: snapshot } as MessageEvent, parent, shop)).toBeNull()
    expect(
      hostMessageOf(
        { source: parent, origin: 'https://evil.example.com', data: snapshot } as MessageEvent,
        parent,
        shop,
      ),
    ).toBeNull()
  })

  it("logs why the framing page's message is ignored in development, and only there", () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {})
    const unknown = { source: parent, origin: shop, data: { ...base, type: 'delete', requestId: 'r' } } as MessageEvent
    expect(hostMessageOf(unknown, parent, shop)).toBeNull()
    expect(debug).not.toHaveBeenCalled()
    vi.stubEnv('NODE_ENV', 'development')
    expect(hostMessageOf(unknown, parent, shop)).toBeNull()
    expect(debug).toHaveBeenCalledWith('paraform embed: message ignored (unknown type "delete")', unknown.data)
  })
})

describe('framing origin', () => {
  it("is the framing page's exact origin when its host is the application's domain", () => {
    expect(framingOrigin('shop.example.com', ['https://shop.example.com'], '')).toBe('https://shop.example.com')
    expect(framingOrigin('localhost:4100', undefined, 'http://localhost:4100/product?x=1')).toBe(
      'http://localhost:4100',
    )
  })

  it('takes any port of a domain without one, as the Origin check and frame-ancestors do', () => {
    expect(framingOrigin('localhost', ['http://localhost:4100'], '')).toBe('http://localhost:4100')
    expect(framingOrigin('shop.example.com', ['https://shop.example.com:8443'], '')).toBe(
      'https://shop.example.com:8443',
    )
  })

  it('is null for another host, another port, an opaque origin or no framing page', () => {
    expect(framingOrigin('shop.example.com', ['https://evil.example'], 'https://shop.example.com/')).toBeNull()
    expect(framingOrigin('localhost:4100', ['http://localhost:4101'], '')).toBeNull()
    expect(framingOrigin('shop.example.com', ['null'], '')).toBeNull()
    expect(framingOrigin('shop.example.com', undefined, '')).toBeNull()
  })
})
