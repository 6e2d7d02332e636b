import { describe, expect, it } from 'vitest'
import { frameAncestors } from '@/lib/applications/frame-ancestors'

describe('frameAncestors', () => {
  it.each([
    ['shop.example.com', 'http://shop.example.com:* https://shop.example.com:*'],
    ['127.0.0.1:5555', 'http://127.0.0.1:5555 https://127.0.0.1:5555'],
    ['localhost', 'http://localhost:* https://localhost:*'],
    ['[::1]:8080', 'http://[::1]:8080 https://[::1]:8080'],
    ['shop.example.com; script-src *', "'none'"],
    ['https://shop.example.com', "'none'"],
    ['*', "'none'"],
    ['', "'none'"],
  ])('%s -> %s', (domain, policy) => {
    expect(frameAncestors(domain)).toBe(policy)
  })
})
