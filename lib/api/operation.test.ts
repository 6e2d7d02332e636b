import { describe, expect, it } from 'vitest'
import { fillPath } from '@/lib/api/operation'

describe('fillPath', () => {
  it('encodes each parameter, an array as one segment each', () => {
    expect(
      fillPath('/configurators/{configuratorId}/files/{path}', {
        configuratorId: 'a b',
        path: ['renderer', 'my scene.json'],
      }),
    ).toBe('/configurators/a%20b/files/renderer/my%20scene.json')
    expect(fillPath('/libraries/{name}', { name: '../x?y' })).toBe('/libraries/..%2Fx%3Fy')
  })

  it('leaves out a missing parameter with its slash, and keeps an empty one as a trailing slash', () => {
    expect(fillPath('/services/{service}/{path}', { service: 'files' })).toBe('/services/files')
    expect(fillPath('/snapshots/{snapshotId}/files/{path}', { snapshotId: 's1', path: '' })).toBe(
      '/snapshots/s1/files/',
    )
  })
})
