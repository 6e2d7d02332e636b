import { describe, expect, it } from 'vitest'
import { belongsToDomain, describeDomain, frameAncestors } from '@/lib/applications/application-domain'

describe('frameAncestors', () => {
  it.each([
    ['shop.example.com', 'http://shop.example.com:* https://shop.example.com:*'],
    ['Shop.Example.com', 'http://shop.example.com:* https://shop.example.com:*'],
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

describe('belongsToDomain', () => {
  it.each([
    // Without a port: the host on any port, http or https.
    ['https://shop.example.com', 'shop.example.com', true],
    ['http://shop.example.com:8080', 'shop.example.com', true],
    ['http://localhost:4100', 'localhost', true],
    ['https://www.shop.example.com', 'shop.example.com', false],
    ['https://shop.example.com.evil.test', 'shop.example.com', false],
    // With a port: exactly that port; a default port is the scheme's.
    ['http://localhost:4100', 'localhost:4100', true],
    ['http://localhost:4101', 'localhost:4100', false],
    ['https://shop.example.com', 'shop.example.com:443', true],
    ['http://shop.example.com', 'shop.example.com:443', false],
    ['http://[::1]:8080', '[::1]:8080', true],
    // Not an origin of the web, or no domain at all.
    ['null', 'shop.example.com', false],
    ['file:///etc/passwd', 'localhost', false],
    ['https://shop.example.com', '*', false],
    ['https://shop.example.com', 'https://shop.example.com', false],
  ])('%s in %s: %s', (origin, domain, belongs) => {
    expect(belongsToDomain(origin, domain)).toBe(belongs)
  })

  it('is told in words with an example', () => {
    expect(describeDomain('shop.example.com')).toContain('http://shop.example.com:8080/')
    expect(describeDomain('localhost:4100')).toBe(
      'Only pages at http://localhost:4100 or https://localhost:4100 may embed it; localhost:8080 cannot (a domain without a port allows every port).',
    )
  })

  it('is the rule frame-ancestors writes: a domain without a port takes every port', () => {
    expect(frameAncestors('localhost')).toContain(':*')
    expect(belongsToDomain('http://localhost:1234', 'localhost')).toBe(true)
  })
})
