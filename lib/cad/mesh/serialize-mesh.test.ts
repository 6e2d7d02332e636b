import { describe, expect, it } from 'vitest'
import type { Mesh } from '@/lib/cad/mesh/mesh'
import { deserializeMesh, serializeMesh } from '@/lib/cad/mesh/serialize-mesh'

describe('serializeMesh', () => {
  it('reads back every part as written: colour, name where it has one, positions and indices', () => {
    const mesh: Mesh = {
      parts: [
        {
          color: [1, 0, 0, 1],
          name: 'Bracket ✓',
          positions: Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]),
          indices: Uint32Array.from([0, 1, 2]),
        },
        { color: [0.5, 0.5, 0.5, 0.25], positions: Float32Array.from([0, 0, 1]), indices: new Uint32Array() },
        { color: [0, 0, 1, 1], name: '', positions: new Float32Array(), indices: new Uint32Array() },
      ],
    }
    const read = deserializeMesh(serializeMesh(mesh))
    expect(read.parts.map((part) => part.name)).toEqual(['Bracket ✓', undefined, ''])
    expect(read.parts.map((part) => [part.color, [...part.positions], [...part.indices]])).toEqual(
      mesh.parts.map((part) => [part.color, [...part.positions], [...part.indices]]),
    )
  })
})
