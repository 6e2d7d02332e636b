import { describe, expect, it } from 'vitest'
import { safeNextPath, signInPath } from '@/lib/auth/sign-in-path'

describe('safeNextPath', () => {
  it.each([
    ['/studio/configurators/1/files', '/studio/configurators/1/files'],
    ['/', '/'],
    ['//evil.example', '/studio'],
    ['/\\evil.example', '/studio'],
    ['https://evil.example', '/studio'],
    [undefined, '/studio'],
    [['/a', '/b'], '/studio'],
  ])('%j -> %s', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected)
  })

  it('round-trips through the sign-in link', () => {
    const next = new URL(signInPath('/studio/configurators/1?tab=a&b=c'), 'http://localhost').searchParams.get('next')
    expect(safeNextPath(next)).toBe('/studio/configurators/1?tab=a&b=c')
  })
})
