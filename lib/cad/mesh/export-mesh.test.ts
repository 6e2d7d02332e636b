import { describe, expect, it } from 'vitest'
import { exportMesh, prepareUsdz } from '@/lib/cad/mesh/export-mesh'
import { parseOff } from '@/lib/cad/mesh/parse-off'
import { BOX_AND_CUBE_OFF } from '@/lib/cad/mesh/test-meshes'
import { writeStl } from '@/lib/cad/mesh/write-stl'
import { writeUsdz } from '@/lib/cad/mesh/write-usdz'

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

  it('answers a USDZ written ahead in the background as its own', async () => {
    const mesh = parseOff(BOX_AND_CUBE_OFF)
    await prepareUsdz(mesh)
    const written = exportMesh(mesh, 'usdz').bytes
    expect(written).toEqual(writeUsdz(mesh))
    await prepareUsdz(mesh)
    expect(exportMesh(mesh, 'usdz').bytes).toBe(written)
  })
})
