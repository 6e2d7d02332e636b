import { describe, expect, it } from 'vitest'
import { exportMesh } from '@/lib/cad/mesh/export-mesh'
import { parseOff } from '@/lib/cad/mesh/parse-off'
import { BOX_AND_CUBE_OFF } from '@/lib/cad/mesh/test-meshes'
import { writeStl } from '@/lib/cad/mesh/write-stl'

describe('exportMesh', () => {
  it('encodes a mesh once per format and answers the same bytes after that', () => {
    const mesh = parseOff(BOX_AND_CUBE_OFF)
    const stl = exportMesh(mesh, 'stl')
    expect(stl).toEqual({ bytes: writeStl(mesh), contentType: 'model/stl' })
    expect(exportMesh(mesh, 'stl').bytes).toBe(stl.bytes)
    expect(exportMesh(mesh, 'glb').bytes).not.toBe(stl.bytes)
    // Another mesh of the same shape is encoded on its own.
    expect(exportMesh(parseOff(BOX_AND_CUBE_OFF), 'stl').bytes).not.toBe(stl.bytes)
  })
})
