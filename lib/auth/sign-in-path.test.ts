import { describe, expect, it } from 'vitest'
import { safeNextPath, signInPath } from '@/lib/auth/sign-in-path'

describe('safeNextPath', () => {
  it.each([
    ['/studio/configurators/1/files', '/studio/configurators/1/files'],
    ['/', '/'],
    ['//evil.example', '/studio'],
    ['/\\evil.example', '/studio'],
    ['https://evil.example', '/studio'],
    // What browsers would turn into //evil.example: they strip tab, LF and CR anywhere and read \ as /.
    ['/\t/evil.example/', '/studio'],
    ['/\n/evil.example/', '/studio'],
    ['/\r\n/evil.example/', '/studio'],
    ['\t//evil.example', '/studio'],
    ['/\t\\evil.example', '/studio'],
    ['/\\/evil.example', '/studio'],
    ['\\\\evil.example', '/studio'],
    ['/ /evil.example', '/studio'],
    ['/\u0000/evil.example', '/studio'],
    ['/\u0085/evil.example', '/studio'],
    ['///evil.example', '/studio'],
    ['/studio\n', '/studio'],
    ['javascript:alert(1)', '/studio'],
    ['', '/studio'],
    // Encoded separators stay encoded: a browser asks this site for that path.
    ['/%2F/evil.example', '/%2F/evil.example'],
    ['/%09/evil.example', '/%09/evil.example'],
    // Only valid header text comes out, so the redirect cannot fail.
    ['/studio/ü?q=ä#é', '/studio/%C3%BC?q=%C3%A4#%C3%A9'],
    ['/studio/../configure/1', '/configure/1'],
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
